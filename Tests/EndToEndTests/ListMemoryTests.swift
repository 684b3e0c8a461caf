import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import Testing

/// Large answers do not stay in memory once written: 15,000 favourites listed again and again
/// keep the engine's resident memory flat (each list is 1.1 MB of JSON; before the fix every
/// written answer stayed queued, about its size a call, until a thousand had piled up).
@Suite(.serialized) struct ListMemoryTests {
    @Test func repeatedLargeListsKeepMemoryFlat() async throws {
        let data = FavoritesTests.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        try FileManager.default.createDirectory(at: data.appendingPathComponent("Favorites"), withIntermediateDirectories: true)
        // 15,000 favourites in the format the engine writes, made directly for speed.
        _ = try SQLiteCLI.run(FavoritesTests.favoritesFile(data), """
            CREATE TABLE favorites(taxon_id INTEGER PRIMARY KEY, created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')));
            CREATE INDEX idx_favorites_created ON favorites(created_at);
            PRAGMA user_version = 1;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 15000)
            INSERT INTO favorites(taxon_id, created_at) SELECT i, printf('2026-01-01T00:00:%02d.%03dZ', i % 60, i % 1000) FROM n;
            """)
        let engine = try EngineProcess(dataDirectory: data)
        var rss: [Int] = []
        for round in 0..<60 {
            // Raw lines: the answers are large, and parsing each one would only slow the test.
            engine.sendRequest(FavoritesListRequest(), id: .integer(round))
            var lines: [String] = []
            for _ in 0..<30_000 where lines.isEmpty {
                lines = engine.takeLines()
                if lines.isEmpty { try await Task.sleep(for: .milliseconds(2)) }
            }
            #expect(lines.count == 1 && lines[0].hasPrefix(#"{"jsonrpc":"2.0","id":\#(round),"result":{"favorites":[{"#), "round \(round)")
            #expect(lines.first?.utf8.count ?? 0 > 1_000_000)
            rss.append(ProcessMemory.read(engine.process.processIdentifier)?.rss ?? 0)
        }
        // After warming up (5 lists), 55 more may not add more than about two lists' worth of
        // memory; before the fix they added one list's worth each (about 60 MiB in all).
        let growthMiB = (rss[59] - rss[4]) / 1024
        #expect(growthMiB < 25, "VmRSS after each list (KiB): \(rss)")
    }
}
