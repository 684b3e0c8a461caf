#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLTestSupport
import Testing

/// Several engines on one data directory (issue 21): favourites written by any engine are seen by
/// all and announced to every client unasked; imports, switches and deletes take turns through a
/// lock the system releases when its holder dies, and every other engine follows them (reopens,
/// sends `database/didSwitch`, never answers from a database that was switched away or deleted);
/// the diagnostics setting is followed too. No timing is asserted: events are awaited with
/// generous timeouts.
@Suite(.serialized) struct SharedDataDirectoryTests {
    @Test func favouritesWrittenByAnyEngineAreSeenByAll() async throws {
        let data = FavoritesTests.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let engines = try (0..<3).map { _ in try EngineProcess(dataDirectory: data) }
        // Bursts from all three at once, each its own ids.
        await withTaskGroup(of: Void.self) { group in
            for (n, engine) in engines.enumerated() {
                group.addTask {
                    for i in 1...40 { _ = await engine.result(FavoritesAddRequest(taxonId: TaxonID(n * 1000 + i))) }
                }
            }
        }
        for engine in engines {
            #expect(await engine.result(FavoritesCountRequest()) == .object(["count": 120]))
            let found = await engine.result(FavoritesContainsRequest(taxonIds: [40, 1040, 2040]))
            #expect(found == .object(["favorites": .object(["40": true, "1040": true, "2040": true])]))
        }
        // Clear in one; the others announce it to their clients unasked, then answer from the file.
        for engine in engines { _ = engine.takeLines() }
        #expect(await engines[1].result(FavoritesClearRequest())?["removed"] == 120)
        for engine in [engines[0], engines[2]] {
            let change = await engine.next(timeout: .seconds(20)) { $0["method"] == "favorites/didChange" && $0["params"] == .object(["count": 0]) }
            #expect(change != nil, "no favorites/didChange {count: 0} without a request: \(engine.pendingLines)")
            #expect(await engine.result(FavoritesCountRequest()) == .object(["count": 0]))
            #expect(await engine.result(FavoritesContainsRequest(taxonId: 40)) == .object(["isFavorite": false]))
        }
        // A mutation after another engine's change starts from the file, not a stale copy.
        #expect(await engines[2].result(FavoritesAddRequest(taxonId: 7))?["added"] == true)
        #expect(await engines[0].result(FavoritesAddRequest(taxonId: 7))?["added"] == false)
        #expect(await engines[0].result(FavoritesCountRequest()) == .object(["count": 1]))
    }

    @Test func importsTakeTurnsAndADeadHolderBlocksNothing() async throws {
        let kit = try ReferenceTests.kit.get()
        let big = try ReferenceTests.bigFile.get()
        let data = ReferenceTests.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let a = try EngineProcess(["--trusted-key", kit.publicKey], dataDirectory: data)
        let b = try EngineProcess(["--trusted-key", kit.publicKey], dataDirectory: data)
        let watching = try EngineProcess(["--trusted-key", kit.publicKey], dataDirectory: data)
        #expect(await watching.result(DatabaseInfoRequest())?["source"] == "bundled")
        // A is importing a large file; B is refused at once, with a kind it can show.
        a.sendRequest(DatabaseImportRequest(path: big.path), id: 1, progressToken: "t")
        #expect(await a.next(timeout: .seconds(60)) { $0["method"] == "$/progress" } != nil)
        let refused = await b.call(DatabaseImportRequest(path: kit.stol.path))
        #expect(refused?["error"]?["code"] == -32020)
        #expect(refused?["error"]?["data"]?["kind"] == "busyInAnotherProcess", "\(String(describing: refused))")
        let switchRefused = await b.call(DeactivateReferenceRequest(delete: true))
        #expect(switchRefused?["error"]?["data"]?["kind"] == "busyInAnotherProcess", "\(String(describing: switchRefused))")
        // A is killed mid-import: the system releases its lock, and B imports at once.
        kill(a.process.processIdentifier, SIGKILL)
        _ = await a.waitForExit()
        let imported = await b.call(DatabaseImportRequest(path: kit.stol.path), timeout: .seconds(60))
        #expect(imported?["result"]?["source"] == "reference", "\(String(describing: imported))")
        // An engine that ran throughout follows B's import.
        await Self.expectFollows(watching, source: "reference", taxaCount: kit.taxaCount, "after the killed holder")
        // A third engine started now serves what B installed.
        let c = try EngineProcess(["--trusted-key", kit.publicKey], dataDirectory: data)
        #expect(await c.result(DatabaseInfoRequest())?["taxaCount"] == .integer(kit.taxaCount))
    }

    /// A second signed database, different from the kit's (two kingdoms, eight taxa), for
    /// imports that must be told apart.
    static let otherStol = Result { () throws -> (stol: URL, taxaCount: Int) in
        let kit = try ReferenceTests.kit.get()
        let database = try Fixtures.buildDatabase("""
            domain Eukaryota
            kingdom Plantae
              name en Plants
            family Rosaceae
            genus Rosa
            species Rosa canina
              name en Dog rose
            kingdom Fungi
            species Amanita muscaria

            """)
        let stol = kit.file("other-\(UUID().uuidString).stol")
        try ReferenceTests.pack(database, key: kit.key, out: stol)
        let count = try Int(SQLiteCLI.run(database, "SELECT count(*) FROM taxa").first ?? "") ?? 0
        return (stol, count)
    }

    /// The number of taxa in the reference database on disk, read with sqlite3; nil without one.
    static func taxaOnDisk(_ data: URL) throws -> Int? {
        let file = ReferenceTests.referenceFile(data)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        return Int(try SQLiteCLI.run(file, "SELECT count(*) FROM taxa", readOnly: true).first ?? "")
    }

    /// Waits for `engine`'s unsolicited `database/didSwitch` to `source` (with `taxaCount` when
    /// given) and checks that `database/info` then says the same.
    static func expectFollows(_ engine: EngineProcess, source: String, taxaCount: Int?, _ label: String,
                              sourceLocation: SourceLocation = #_sourceLocation) async {
        let switched = await engine.next(timeout: .seconds(20)) { message in
            message["method"] == "database/didSwitch" && message["params"]?["source"] == .string(source)
                && (taxaCount.map { message["params"]?["taxaCount"] == .integer($0) } ?? true)
        }
        #expect(switched != nil, "\(label): no database/didSwitch to \(source): \(engine.pendingLines)", sourceLocation: sourceLocation)
        let info = await engine.result(DatabaseInfoRequest())
        #expect(info?["source"] == .string(source), "\(label): \(String(describing: info))", sourceLocation: sourceLocation)
        if let taxaCount { #expect(info?["taxaCount"] == .integer(taxaCount), "\(label)", sourceLocation: sourceLocation) }
    }

    @Test func concurrentImportsLeaveEveryEngineReportingWhatIsOnDisk() async throws {
        let kit = try ReferenceTests.kit.get()
        let other = try Self.otherStol.get()
        try #require(other.taxaCount != kit.taxaCount)
        let data = ReferenceTests.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let engines = try (0..<3).map { _ in try EngineProcess(["--trusted-key", kit.publicKey], dataDirectory: data) }
        for engine in engines { #expect(await engine.result(DatabaseInfoRequest())?["source"] == "bundled") }
        // Two engines import different files at the same moment; the third only watches.
        async let first = engines[0].call(DatabaseImportRequest(path: kit.stol.path), timeout: .seconds(60))
        async let second = engines[1].call(DatabaseImportRequest(path: other.stol.path), timeout: .seconds(60))
        let answers = [await first, await second]
        let succeeded = answers.filter { $0?["result"]?["source"] == "reference" }
        #expect(!succeeded.isEmpty, "\(answers)")
        for answer in answers where answer?["result"] == nil {
            #expect(answer?["error"]?["data"]?["kind"] == "busyInAnotherProcess", "\(String(describing: answer))")
        }
        // Whichever won last, every engine now serves the file on disk, and at once.
        let onDisk = try #require(try Self.taxaOnDisk(data))
        #expect(onDisk == kit.taxaCount || onDisk == other.taxaCount)
        for (n, engine) in engines.enumerated() {
            let info = await engine.result(DatabaseInfoRequest())
            #expect(info?["source"] == "reference" && info?["taxaCount"] == .integer(onDisk), "engine \(n): \(String(describing: info))")
        }
        // The watcher announced it: the third engine imported nothing, yet its client heard.
        await Self.expectFollows(engines[2], source: "reference", taxaCount: onDisk, "watcher")
        // One after the other, both succeed, and the engines follow each time.
        for (importer, file, count) in [(0, kit.stol, kit.taxaCount), (1, other.stol, other.taxaCount), (2, kit.stol, kit.taxaCount)] {
            for engine in engines { _ = engine.takeLines() }
            let imported = await engines[importer].call(DatabaseImportRequest(path: file.path), timeout: .seconds(60))
            #expect(imported?["result"]?["taxaCount"] == .integer(count), "\(String(describing: imported))")
            #expect(try Self.taxaOnDisk(data) == count)
            for (n, engine) in engines.enumerated() where n != importer {
                await Self.expectFollows(engine, source: "reference", taxaCount: count, "engine \(n) after engine \(importer) imported")
            }
        }
    }

    @Test func switchesAndDeletesInOneEngineReachTheOthers() async throws {
        let kit = try ReferenceTests.kit.get()
        let data = ReferenceTests.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let engines = try (0..<3).map { _ in try EngineProcess(["--trusted-key", kit.publicKey], dataDirectory: data) }
        // Every engine is up (one started after the import would simply open the reference).
        for engine in engines { #expect(await engine.result(DatabaseInfoRequest())?["source"] == "bundled") }
        let bundledCount = try #require(await engines[0].result(DatabaseInfoRequest())?["taxaCount"])
        #expect(await engines[0].call(DatabaseImportRequest(path: kit.stol.path), timeout: .seconds(60))?["result"] != nil)
        for engine in engines.dropFirst() { await Self.expectFollows(engine, source: "reference", taxaCount: kit.taxaCount, "after the import") }

        // Deactivate (keep the file) in the second engine.
        for engine in engines { _ = engine.takeLines() }
        #expect(await engines[1].result(DeactivateReferenceRequest())?["isReferenceActive"] == false)
        for n in [0, 2] { await Self.expectFollows(engines[n], source: "bundled", taxaCount: bundledCount.int64Value.map(Int.init), "engine \(n) after deactivate") }
        #expect(await engines[0].result(StorageReportRequest())?["reference"]?["available"] == true)

        // Activate again in the third.
        for engine in engines { _ = engine.takeLines() }
        #expect(await engines[2].result(ActivateReferenceRequest())?["isReferenceActive"] == true)
        for n in [0, 1] { await Self.expectFollows(engines[n], source: "reference", taxaCount: kit.taxaCount, "engine \(n) after activate") }

        // A taxon only the reference has, read (and so kept in the taxon cache) by the others.
        let embedded = EngineBinary.repositoryRoot.appendingPathComponent("Sources/STOLEngine/Resources/default.sqlite")
        let bundledIDs = Set(try SQLiteCLI.run(embedded, "SELECT id FROM taxa"))
        let onlyInReference = try #require(try SQLiteCLI.run(kit.database, "SELECT id FROM taxa ORDER BY id").first { !bundledIDs.contains($0) }.flatMap(Int64.init))
        for n in [1, 2] { #expect(await engines[n].result(TaxonGetRequest(id: onlyInReference))?["id"] == .integer(onlyInReference)) }

        // Delete in the first: nobody answers from the deleted file any more.
        for engine in engines { _ = engine.takeLines() }
        #expect(await engines[0].result(DeactivateReferenceRequest(delete: true))?["referenceAvailable"] == false)
        #expect(!FileManager.default.fileExists(atPath: ReferenceTests.referenceFile(data).path))
        for n in [1, 2] {
            // `taxon/get`, answered on the intake thread when nothing changed, looks at the disk
            // first: the taxon it read a moment ago is gone with the reference.
            let gone = await engines[n].call(TaxonGetRequest(id: onlyInReference))
            #expect(gone?["error"]?["data"]?["kind"] == "taxonNotFound", "engine \(n) right after the delete: \(String(describing: gone))")
            // Asked before the watcher's next look, the engine still answers the truth.
            let info = await engines[n].result(DatabaseInfoRequest())
            #expect(info?["source"] == "bundled", "engine \(n) right after the delete: \(String(describing: info))")
            await Self.expectFollows(engines[n], source: "bundled", taxaCount: nil, "engine \(n) after delete")
            #expect(await engines[n].call(ActivateReferenceRequest())?["error"]?["data"]?["kind"] == "referenceMissing")
        }
    }

    @Test func diagnosticsSettingIsFollowed() async throws {
        let data = FavoritesTests.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let engines = try (0..<2).map { _ in try EngineProcess(dataDirectory: data) }
        // Both are up (one that started after the change would simply read the setting).
        for engine in engines { #expect(await engine.result(DiagnosticsStatusRequest())?["enabled"] == false) }
        for enabled in [true, false] {
            #expect(await engines[0].result(DiagnosticsSetEnabledRequest(enabled: enabled))?["enabled"] == .bool(enabled))
            let change = await engines[1].next(timeout: .seconds(20)) { $0["method"] == "diagnostics/didChange" }
            #expect(change?["params"] == .object(["enabled": .bool(enabled)]), "\(String(describing: change))")
            #expect(await engines[1].result(DiagnosticsStatusRequest())?["enabled"] == .bool(enabled))
        }
    }

    /// The check before every database read costs no memory: a first version kept the check as
    /// an async closure in a generic box, and each call leaked about 20 KB (15,000 `taxon/get`
    /// grew the engine from 40 to 170 MB and slowed it fivefold).
    @Test func theCheckBeforeEachReadKeepsMemoryFlat() async throws {
        let engine = try EngineProcess()
        let rounds = 6, perRound = 2_500
        var rss: [Int] = []
        var nextID = 0
        for _ in 0..<rounds {
            var lines: [UInt8] = []
            for _ in 0..<perRound {
                nextID += 1
                lines += Array(RequestLine.encode(TaxonGetRequest(id: 4_100_088_141_433_187), id: .integer(nextID)).utf8) + [0x0A]
            }
            engine.sendBytes(lines)
            var answered = 0
            for _ in 0..<30_000 where answered < perRound {
                let taken = engine.takeLines()
                #expect(taken.allSatisfy { $0.contains(#""result":{"#) }, "\(taken.first ?? "")")
                answered += taken.count
                if taken.isEmpty { try await Task.sleep(for: .milliseconds(2)) }
            }
            #expect(answered == perRound)
            rss.append(ProcessMemory.read(engine.process.processIdentifier)?.rss ?? 0)
        }
        // After the first round, 12,500 more reads may not add 25 MiB (the leak added about 250).
        let growthMiB = (rss[rounds - 1] - rss[0]) / 1024
        #expect(growthMiB < 25, "VmRSS after each round (KiB): \(rss)")
    }
}
