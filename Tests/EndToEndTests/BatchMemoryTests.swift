#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLSupport
import STOLTestSupport
import Testing

/// A flood of large batches against the real binary: each request of a batch counts against the
/// running-request limit and a batch over the entry cap is refused with one typed error, so the
/// engine's memory stays bounded however much is sent, and every request is answered once.
@Suite(.serialized) struct BatchMemoryTests {
    /// Megabytes of batches written; `STOL_BATCH_FLOOD_MB` changes it (RELIABILITY.md uses 1024).
    static var floodMegabytes: Int { Int(ProcessInfo.processInfo.environment["STOL_BATCH_FLOOD_MB"] ?? "") ?? 128 }
    /// The bound on the engine's resident memory during the flood, in MiB.
    static let boundMiB = 100
    /// The engine's batch-entry cap (`RPCServer.Options.maxBatchEntries`).
    static let cap = 1000
    /// Entries in each batch over the cap.
    static let refusedSize = 100_000

    /// One line of the flood. Most are batches at the cap: pings padded to about 2 KB each and
    /// one short sleep that keeps the batch open; every eighth is a batch of 100,000 bare pings
    /// (4.5 MB), far over the cap. Returns the line and the ids it asks to have answered (none
    /// for a refused one).
    static func line(_ index: Int, firstID: Int) -> (bytes: [UInt8], ids: Range<Int>) {
        var text = "["
        if index % 8 == 7 {
            for i in 0..<refusedSize {
                if i > 0 { text += "," }
                text += RequestLine.encode(PingRequest(), id: .integer(firstID + i))
            }
            return (Array((text + "]\n").utf8), firstID..<firstID)
        }
        let pad = String(repeating: "abcdefgh", count: 256)
        for i in 0..<cap {
            if i > 0 { text += "," }
            if i == cap / 2 {
                text += RequestLine.encode(SleepRequest(ms: 20), id: .integer(firstID + i))
            } else {
                text += #"{"jsonrpc":"2.0","id":\#(firstID + i),"method":"ping","params":{"pad":"\#(pad)","n":\#(i)}}"#
            }
        }
        return (Array((text + "]\n").utf8), firstID..<(firstID + cap))
    }

    @Test func aFloodOfLargeBatchesKeepsMemoryBoundedAndAnswersEveryRequestOnce() async throws {
        let engine = try EngineProcess(["--conformance-methods", "--log-level", "error"])
        let pid = engine.process.processIdentifier
        #expect(await engine.result(PingRequest()) == .object([]))
        let idle = try #require(ProcessMemory.read(pid)).rss
        let sampler = MemorySampler(pid: pid)

        // Write the flood on a thread of its own: the engine stops reading while it is busy.
        let target = Self.floodMegabytes << 20
        let plan = Locked((written: 0, lines: 0, refused: 0, expected: 0, done: false))
        Thread {
            var nextID = 1_000
            var index = 0
            while plan.withLock({ $0.written }) < target {
                let (bytes, ids) = Self.line(index, firstID: nextID)
                engine.sendBytes(bytes)
                nextID += Self.refusedSize
                plan.withLock { p in
                    p.written += bytes.count
                    p.lines += 1
                    if ids.isEmpty { p.refused += 1 } else { p.expected += ids.count }
                }
                index += 1
            }
            plan.withLock { $0.done = true }
            engine.closeStdin()
        }.start()

        // Read every answer as it comes, so the test holds only counts.
        var answered: [Int: Int] = [:]
        var refusals = 0
        var other: [String] = []
        var exitCode: Int32? = nil
        let deadline = ContinuousClock.now + .seconds(1200)
        while ContinuousClock.now < deadline {
            let lines = engine.takeLines()
            for line in lines {
                let value = try JSONParser.parse(Array(line.utf8))
                if let entries = value.arrayValue {
                    for entry in entries {
                        guard let id = entry["id"]?.int64Value, entry["error"] == nil else { other.append(entry.description); continue }
                        answered[Int(id), default: 0] += 1
                    }
                } else if value["error"]?["data"]?["kind"] == "batchTooLarge" {
                    #expect(value["id"] == .null)
                    #expect(value["error"]?["data"]?["size"] == .integer(Int64(Self.refusedSize)))
                    #expect(value["error"]?["data"]?["limit"] == .integer(Int64(Self.cap)))
                    refusals += 1
                } else {
                    other.append(String(line.prefix(300)))
                }
            }
            if lines.isEmpty {
                if let code = await engine.waitForExit(timeout: .milliseconds(50)) {
                    if engine.pendingLines.isEmpty { exitCode = code; break }
                }
            }
        }
        sampler.stop()
        let written = plan.withLock { $0 }
        #expect(written.done)
        #expect(exitCode == 0)
        #expect(other.isEmpty, "unexpected answers: \(other.prefix(5))")
        #expect(refusals == written.refused)
        #expect(answered.count == written.expected, "answered \(answered.count) of \(written.expected) requests")
        #expect(answered.values.allSatisfy { $0 == 1 }, "some requests were answered more than once")
        let peakMiB = sampler.peakKiB / 1024
        let inputMiB = written.written >> 20
        print("batch flood: \(inputMiB) MiB in \(written.lines) lines (\(written.refused) refused), \(written.expected) requests; engine RSS idle \(idle / 1024) MiB, peak \(peakMiB) MiB")
        #expect(sampler.all.count > 10, "too few memory samples to judge")
        #expect(peakMiB < Self.boundMiB, "peak RSS \(peakMiB) MiB for \(inputMiB) MiB of batches")
        #expect(inputMiB > Self.boundMiB, "the flood should be larger than the bound it is held to")
    }
}
