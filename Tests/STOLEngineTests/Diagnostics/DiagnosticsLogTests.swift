import Foundation
import Logging
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine

/// The diagnostics file: redaction, levels, rotation and the size cap; and About's source credits.
@Suite struct DiagnosticsLogTests {
    @Test func linesAreRedactedBeforeTheyAreKept() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let log = DiagnosticsLog()
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        let user = ProcessInfo.processInfo.environment["USER"] ?? "nobody-in-particular"
        log.configure(directory: dir.url.appendingPathComponent("Diagnostics"), redactor: Redactor(dataDirectory: dir.url), enabled: true)
        let logger = Logger(label: "test") { DiagnosticsLogHandler(label: $0, sink: log) }
        logger.info("opened \(dir.url.path)/Databases/reference.sqlite from \(home)/Downloads as \(user) on \(ProcessInfo.processInfo.hostName)")
        logger.info("favourite 4100088141433187")
        logger.debug("search for secret words")
        let lines = log.recentLines()
        #expect(lines.count == 2)
        let text = lines.joined(separator: "\n")
        #expect(text.contains("<data-dir>/Databases/reference.sqlite"), "\(text)")
        #expect(!text.contains(dir.url.path) && !text.contains(home) && !text.contains("4100088141433187") && !text.contains("secret words"), "\(text)")
        let file = try String(contentsOf: dir.url.appendingPathComponent("Diagnostics/diagnostics.log"), encoding: .utf8)
        #expect(file.split(separator: "\n").count == 2)
    }

    @Test func theFileRotatesAtOneMebibyte() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let log = DiagnosticsLog()
        let folder = dir.url.appendingPathComponent("Diagnostics")
        log.configure(directory: folder, redactor: Redactor(dataDirectory: dir.url), enabled: true)
        let line = String(repeating: "x", count: 1000)
        for _ in 0..<2600 { log.record(level: .info, label: "t", message: line, metadata: nil) }
        log.flush()
        let size = { (name: String) in ((try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path))?[.size] as? NSNumber)?.intValue ?? 0 }
        #expect(size("diagnostics.1.log") > 0 && size("diagnostics.1.log") <= Int(DiagnosticsLog.maxFileBytes) + 1100)
        #expect(size("diagnostics.log") < Int(DiagnosticsLog.maxFileBytes))
        #expect(log.bytes() <= 2 * DiagnosticsLog.maxFileBytes + 1100)
        try log.delete()
        #expect(log.bytes() == 0)
        log.setEnabled(false)
        log.record(level: .info, label: "t", message: "after", metadata: nil)
        log.flush()
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("diagnostics.log").path))
    }

    @Test func sourcesNameTheirLicence() {
        let sources = AboutInfo.sources(attribution: "Mammal Diversity Database (2025). v2.1. ASM. CC BY 4.0\n\nOpen Tree of Life v15.1 (CC BY 3.0)\nTaxa: CC0 1.0\nNo licence here")
        #expect(sources.map(\.license) == ["CC BY 4.0", "CC BY 3.0", "CC0 1.0", nil])
        #expect(sources.map(\.attributionRequired) == [true, true, false, false])
    }
}
