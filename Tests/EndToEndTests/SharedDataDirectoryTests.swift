#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import STOLRPC
import Testing

/// Several engines on one data directory (issue 21, first part): favourites written by any engine
/// are seen by all, and imports, switches and deletes take turns through a lock the system
/// releases when its holder dies.
@Suite(.serialized) struct SharedDataDirectoryTests {
    @Test func favouritesWrittenByAnyEngineAreSeenByAll() async throws {
        let data = FavoritesTests.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let engines = try (0..<3).map { _ in try EngineProcess(dataDirectory: data) }
        // Bursts from all three at once, each its own ids.
        await withTaskGroup(of: Void.self) { group in
            for (n, engine) in engines.enumerated() {
                group.addTask {
                    for i in 1...40 { _ = await engine.result("favorites/add", .object(["taxonId": .integer(n * 1000 + i)])) }
                }
            }
        }
        for engine in engines {
            #expect(await engine.result("favorites/count") == .object(["count": 120]))
            let found = await engine.result("favorites/contains", .object(["taxonIds": [40, 1040, 2040]]))
            #expect(found == .object(["favorites": .object(["40": true, "1040": true, "2040": true])]))
        }
        // Clear in one; the others see it, and announce it to their clients.
        _ = engines[0].takeLines()
        #expect(await engines[1].result("favorites/clear")?["removed"] == 120)
        for engine in [engines[0], engines[2]] {
            _ = engine.takeLines()
            #expect(await engine.result("favorites/count") == .object(["count": 0]))
            let change = await engine.next(timeout: .seconds(2)) { $0["method"] == "favorites/didChange" }
            #expect(change?["params"] == .object(["count": 0]), "\(String(describing: change))")
            #expect(await engine.result("favorites/contains", .object(["taxonId": 40])) == .object(["isFavorite": false]))
        }
        // A mutation after another engine's change starts from the file, not a stale copy.
        #expect(await engines[2].result("favorites/add", .object(["taxonId": 7]))?["added"] == true)
        #expect(await engines[0].result("favorites/add", .object(["taxonId": 7]))?["added"] == false)
        #expect(await engines[0].result("favorites/count") == .object(["count": 1]))
    }

    @Test func importsTakeTurnsAndADeadHolderBlocksNothing() async throws {
        let kit = try ReferenceTests.kit.get()
        let big = try ReferenceTests.bigFile.get()
        let data = ReferenceTests.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let a = try EngineProcess(["--trusted-key", kit.publicKey], dataDirectory: data)
        let b = try EngineProcess(["--trusted-key", kit.publicKey], dataDirectory: data)
        // A is importing a large file; B is refused at once, with a kind it can show.
        a.send(JSONValue.object([
            "jsonrpc": "2.0", "id": 1, "method": "database/import",
            "params": .object(["path": .string(big.path), "_meta": .object(["progressToken": "t"])]),
        ]).description)
        #expect(await a.next(timeout: .seconds(60)) { $0["method"] == "$/progress" } != nil)
        let refused = await b.call("database/import", .object(["path": .string(kit.stol.path)]))
        #expect(refused?["error"]?["code"] == -32020)
        #expect(refused?["error"]?["data"]?["kind"] == "busyInAnotherProcess", "\(String(describing: refused))")
        let switchRefused = await b.call("database/deactivateReference", .object(["delete": true]))
        #expect(switchRefused?["error"]?["data"]?["kind"] == "busyInAnotherProcess", "\(String(describing: switchRefused))")
        // A is killed mid-import: the system releases its lock, and B imports at once.
        kill(a.process.processIdentifier, SIGKILL)
        _ = await a.waitForExit()
        let imported = await b.call("database/import", .object(["path": .string(kit.stol.path)]), timeout: .seconds(60))
        #expect(imported?["result"]?["source"] == "reference", "\(String(describing: imported))")
        // A third engine started now serves what B installed.
        let c = try EngineProcess(["--trusted-key", kit.publicKey], dataDirectory: data)
        #expect(await c.result("database/info")?["taxaCount"] == .integer(kit.taxaCount))
    }
}
