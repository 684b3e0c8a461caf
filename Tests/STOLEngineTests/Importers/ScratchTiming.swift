import Foundation
import Testing
@testable import STOLEngine

@Test(.enabled(if: ProcessInfo.processInfo.environment["STOL_SCRATCH"] == "1"))
func scratchTiming() throws {
    let file = RealDataImportTests.sharedData("opentree/nodes.tsv.gz")
    let clock = ContinuousClock()
    var n = 0
    let t0 = try clock.measure {
        let r = try GzipReader(url: file)
        var buf: [UInt8] = []
        while try r.read(into: &buf, max: 1 << 16) > 0 { n += buf.count; buf.removeAll(keepingCapacity: true) }
    }
    print("gunzip \(t0) \(n)")
    n = 0
    let t1 = try clock.measure {
        let lines = try LineReader(url: file)
        while try lines.withNextLine({ $0.count }) != nil { n += 1 }
    }
    print("lines \(t1) \(n)")
    n = 0
    let t2 = try clock.measure {
        let r = try DelimitedReader(url: file, format: .tsv)
        while let rec = try r.next() { n += rec.fields.count }
    }
    print("tsv \(t2) \(n)")
}
