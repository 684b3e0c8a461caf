import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLTestSupport
import Testing

/// A batch's answers are bounded. One line of 1,000 `favorites/list` requests over 20,000
/// favourites (62 KB) used to be answered as one 1.49 GB line, held whole in memory while the
/// client did not read (VmRSS 59 → 1,394 MB). Now a batch keeps its answers up to 16 MiB and
/// answers the rest with a typed error, and the engine's memory stays bounded and flat.
@Suite(.serialized) struct BatchAnswerBoundTests {
    /// `RPCServer.Options.maxBatchAnswerBytes`.
    static let limit = 16 << 20
    static let favourites = 20_000
    static let entries = 1_000
    /// Batch lines sent while the client does not read.
    static let lines = 3
    /// The bound on the engine's peak resident memory (VmHWM), in MiB: generous (two batches'
    /// answers, the output budget, 64 running lists and the debug build's slack); without the
    /// bound the first batch alone took 1,394 MB.
    static let boundMiB = 512

    @Test func batchesOfLargeAnswersStayBoundedWhileTheClientDoesNotRead() async throws {
        let data = FavoritesTests.dataDirectory()
        try FileManager.default.createDirectory(at: data.appendingPathComponent("Favorites"), withIntermediateDirectories: true)
        _ = try SQLiteCLI.run(FavoritesTests.favoritesFile(data), """
            CREATE TABLE favorites(taxon_id INTEGER PRIMARY KEY, created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')));
            CREATE INDEX idx_favorites_created ON favorites(created_at);
            PRAGMA user_version = 1;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(Self.favourites))
            INSERT INTO favorites(taxon_id, created_at) SELECT i, printf('2026-01-01T00:00:%02d.%03dZ', i % 60, i % 1000) FROM n;
            """)
        let engine = try BackpressureTests.RawEngine(["--log-level", "error"], dataDirectory: data)
        let pid = engine.process.processIdentifier

        // One list alone: its size, and a warm engine.
        engine.sendInBackground(Array(BackpressureTests.line(.integer(0), FavoritesListRequest()).utf8))
        var single: String?
        let warmDeadline = ContinuousClock.now + .seconds(120)
        while single == nil, ContinuousClock.now < warmDeadline {
            single = engine.takeLines().first
            try await Task.sleep(for: .milliseconds(5))
        }
        let answerSize = try #require(single).utf8.count
        #expect(answerSize > 1_000_000, "a list of \(Self.favourites) favourites is \(answerSize) bytes")
        let idleKiB = try #require(ProcessMemory.read(pid)).rss

        // Stop reading, then send the batches: 62 KB a line, 1.49 GB of answers a line unbounded.
        engine.setReading(false)
        try await Task.sleep(for: .milliseconds(50))
        _ = engine.takeLines()
        var stream = ""
        for line in 0..<Self.lines {
            let ids = (1...Self.entries).map { line * Self.entries + $0 }
            stream += "[" + ids.map { RequestLine.encode(FavoritesListRequest(), id: .integer($0)) }.joined(separator: ",") + "]\n"
        }
        let sampler = MemorySampler(pid: pid, interval: .milliseconds(50))
        engine.sendInBackground(Array(stream.utf8))

        // Wait until the engine has used no CPU for 1 s (what it could run has run), then watch 3 s more.
        let settled = try await ProcessCPU.waitUntilIdle(pid, timeout: .seconds(600))
        let settledKiB = try #require(ProcessMemory.read(pid)).rss
        try await Task.sleep(for: .seconds(3))
        let later = try #require(ProcessMemory.read(pid))
        sampler.stop()
        print("""
            BatchAnswerBoundTests: \(Self.lines) lines of \(Self.entries) favorites/list (\(answerSize) bytes each), client not reading: \
            idle after \(settled); VmRSS idle \(idleKiB / 1024) MiB, sampled peak \(sampler.peakKiB / 1024) MiB, \
            when idle \(settledKiB / 1024) MiB, 3 s later \(later.rss / 1024) MiB; VmHWM \(later.peak / 1024) MiB (bound \(Self.boundMiB) MiB)
            """)
        #expect(engine.process.isRunning)
        #expect(settled < .seconds(600), "the engine kept working while the client did not read")
        #expect(later.peak / 1024 < Self.boundMiB, "VmHWM \(later.peak / 1024) MiB")
        #expect(later.rss <= settledKiB + 1024, "memory still growing while the client does not read")

        // Read again: every batch is answered whole, results up to the limit, the rest refused.
        engine.setReading(true)
        var batches: [String] = []
        let readDeadline = ContinuousClock.now + .seconds(600)
        while batches.count < Self.lines, ContinuousClock.now < readDeadline {
            batches += engine.takeLines()
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(batches.count == Self.lines, "\(batches.count) of \(Self.lines) batch answers")
        var answered = Set<Int64>()
        for (index, line) in batches.enumerated() {
            #expect(line.utf8.count <= Self.limit + Self.entries * 400, "batch answer of \(line.utf8.count) bytes")
            let parts = try #require(try JSONParser.parse(Array(line.utf8)).arrayValue)
            #expect(parts.count == Self.entries)
            var results = 0, refused = 0
            for part in parts {
                if let id = part["id"]?.int64Value { answered.insert(id) }
                if let favourites = part["result"]?["favorites"]?.arrayValue {
                    #expect(favourites.count == Self.favourites)
                    results += 1
                } else if let error = part["error"] {
                    #expect(error["code"] == .number("-32003"))
                    #expect(error["data"]?["kind"] == "batchAnswerTooLarge")
                    #expect(error["data"]?["limit"] == .integer(Int64(Self.limit)))
                    refused += 1
                }
            }
            // As many whole answers as fit (ids differ in length by a few bytes), the rest refused.
            #expect(results + refused == Self.entries)
            #expect((Self.limit / (answerSize + 8)...Self.limit / (answerSize - 8)).contains(results), "batch \(index): \(results) results")
        }
        #expect(answered.count == Self.lines * Self.entries, "every request answered once")
        engine.sendInBackground(Array(BackpressureTests.line(.integer(-1), PingRequest()).utf8))
        var pong: String?
        let pingDeadline = ContinuousClock.now + .seconds(60)
        while pong == nil, ContinuousClock.now < pingDeadline {
            pong = engine.takeLines().first
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(pong == #"{"jsonrpc":"2.0","id":-1,"result":{}}"#)
    }
}
