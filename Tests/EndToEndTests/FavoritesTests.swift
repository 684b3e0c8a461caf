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

/// Favourites over the real binary: every method, persistence across restarts, the damaged-file
/// path, and SIGKILL in the middle of a burst of changes.
@Suite(.serialized) struct FavoritesTests {
    static let database = Result { try Fixtures.buildDatabase() }
    static let title = "My Favourite Species — Species: Tree of Life"

    /// A data directory of its own; engines started on it must be kept alive until the test ends,
    /// because an `EngineProcess` removes its data directory when it goes away.
    static func dataDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("stol-fav-\(UUID().uuidString)")
    }

    static func favoritesFile(_ data: URL) -> URL { data.appendingPathComponent("Favorites/favorites.sqlite") }

    func engine(_ data: URL? = nil) throws -> EngineProcess {
        try EngineProcess(["--database", try Self.database.get().path], dataDirectory: data ?? Self.dataDirectory())
    }

    /// The fixture's taxon id for a scientific name.
    static func id(_ name: String) throws -> Int64 {
        let rows = try SQLiteCLI.run(try database.get(), "SELECT id FROM taxa WHERE scientific_name = '\(name)'")
        return try #require(rows.first.flatMap { Int64($0) }, "\(name)")
    }

    static func didChange(_ engine: EngineProcess, timeout: Duration = .seconds(5)) async -> JSONValue? {
        await engine.next(timeout: timeout) { $0["method"] == "favorites/didChange" }?["params"]
    }

    func ids(_ list: JSONValue?) -> [Int64] {
        list?["favorites"]?.arrayValue?.compactMap { $0["taxonId"]?.int64Value } ?? []
    }

    static let unknown: Int64 = 424242

    // MARK: T1–T12

    @Test func addIsIdempotentAndSaysWhetherTheTaxonIsAvailable() async throws {
        let engine = try engine()
        let leo = try Self.id("Panthera leo")
        let first = await engine.result(FavoritesAddRequest(taxonId: leo))
        #expect(first?["added"] == true && first?["available"] == true)
        #expect(await Self.didChange(engine) == .object(["count": 1]))
        let again = await engine.result(FavoritesAddRequest(taxonId: leo))
        #expect(again?["added"] == false && again?["available"] == true)
        #expect(await Self.didChange(engine, timeout: .milliseconds(300)) == nil, "nothing changed")
        let missing = await engine.result(FavoritesAddRequest(taxonId: Self.unknown))
        #expect(missing?["added"] == true && missing?["available"] == false)
        #expect(await Self.didChange(engine) == .object(["count": 2]))
        #expect(await engine.result(FavoritesCountRequest()) == .object(["count": 2]))
    }

    @Test func removeOneOrManyAndNoOpsForAbsentIds() async throws {
        let engine = try engine()
        for id in [10, 11, 12, 13] as [Int64] { _ = await engine.result(FavoritesAddRequest(taxonId: id)) }
        for _ in 0..<4 { _ = await Self.didChange(engine) }
        #expect(await engine.result(FavoritesRemoveRequest(taxonId: 10)) == .object(["removed": 1]))
        #expect(await Self.didChange(engine) == .object(["count": 3]))
        #expect(await engine.result(FavoritesRemoveRequest(taxonId: 10)) == .object(["removed": 0]))
        #expect(await Self.didChange(engine, timeout: .milliseconds(300)) == nil)
        #expect(await engine.result(FavoritesRemoveRequest(taxonIds: [11, 12, 99, 11])) == .object(["removed": 2]))
        #expect(await Self.didChange(engine) == .object(["count": 1]))
        #expect(await engine.result(FavoritesRemoveRequest(taxonIds: [])) == .object(["removed": 0]))
        #expect(await engine.result(FavoritesContainsRequest(taxonIds: [10, 11, 12, 13]))?["favorites"]
            == .object(["10": false, "11": false, "12": false, "13": true]))
    }

    @Test func toggleTwiceReturnsToTheStart() async throws {
        let engine = try engine()
        let tiger = try Self.id("Panthera tigris")
        let on = await engine.result(FavoritesToggleRequest(taxonId: tiger))
        #expect(on?["isFavorite"] == true && on?["available"] == true)
        #expect(await Self.didChange(engine) == .object(["count": 1]))
        #expect(await engine.result(FavoritesContainsRequest(taxonId: tiger)) == .object(["isFavorite": true]))
        let off = await engine.result(FavoritesToggleRequest(taxonId: tiger))
        #expect(off?["isFavorite"] == false)
        #expect(await Self.didChange(engine) == .object(["count": 0]))
        #expect(await engine.result(FavoritesContainsRequest(taxonId: tiger)) == .object(["isFavorite": false]))
        let unknown = await engine.result(FavoritesToggleRequest(taxonId: Self.unknown))
        #expect(unknown?["isFavorite"] == true && unknown?["available"] == false)
    }

    @Test func containsCountClearStorageAndStatus() async throws {
        let engine = try engine()
        #expect(await engine.result(FavoritesCountRequest()) == .object(["count": 0]))
        #expect(await engine.result(FavoritesContainsRequest(taxonIds: [1, 2]))?["favorites"] == .object(["1": false, "2": false]))
        for id in 1...5 as ClosedRange<Int64> { _ = await engine.result(FavoritesAddRequest(taxonId: id)) }
        #expect(await engine.result(FavoritesCountRequest()) == .object(["count": 5]))
        #expect(await engine.result(FavoritesContainsRequest(taxonIds: [5, 6]))?["favorites"] == .object(["5": true, "6": false]))
        let bytes = try #require(await engine.result(FavoritesStorageBytesRequest())?["bytes"]?.int64Value)
        let file = Self.favoritesFile(engine.dataDirectory)
        let pages = try SQLiteCLI.run(file, "SELECT page_count * page_size FROM pragma_page_count, pragma_page_size")
        #expect(bytes > 0 && pages == ["\(bytes)"])
        let status = await engine.result(FavoritesStatusRequest())
        #expect(status?["count"] == 5 && status?["bytes"]?.int64Value == bytes && status?["recovery"] == .null)
        for _ in 0..<5 { _ = await Self.didChange(engine) }
        #expect(await engine.result(FavoritesClearRequest()) == .object(["removed": 5]))
        #expect(await Self.didChange(engine) == .object(["count": 0]))
        #expect(await engine.result(FavoritesClearRequest()) == .object(["removed": 0]))
        #expect(await Self.didChange(engine, timeout: .milliseconds(300)) == nil)
        #expect(await engine.result(FavoritesCountRequest()) == .object(["count": 0]))
    }

    /// The two genera named Morus (mulberries and gannets, both in the embedded database) are told
    /// apart in the list, and only they carry a disambiguation.
    @Test func homonymsInTheListCarryTheirDisambiguation() async throws {
        let engine = try EngineProcess()
        let gannet: Int64 = 3_887_965_843_785_709, mulberry: Int64 = 1_883_078_841_168_335
        let leo = try #require(await engine.result(SearchQueryRequest(query: "Panthera leo", limit: 1))?["results"]?.arrayValue?.first?["id"]?.int64Value)
        for id in [gannet, mulberry, leo] { _ = await engine.result(FavoritesAddRequest(taxonId: id)) }
        let list = await engine.result(FavoritesListRequest(sort: .scientific))?["favorites"]?.arrayValue ?? []
        let byID = Dictionary(uniqueKeysWithValues: list.compactMap { entry in entry["taxonId"]?.int64Value.map { ($0, entry) } })
        #expect(byID[gannet]?["disambiguation"]?["display"] == "Morus (genus in Aves)", "\(list)")
        #expect(byID[mulberry]?["disambiguation"]?["display"] == "Morus (genus in Magnoliopsida)")
        #expect(byID[leo]?["scientificName"] == "Panthera leo" && byID[leo]?["disambiguation"] == nil)
    }

    @Test func theFileHoldsOnlyTaxonIdsAndTimes() async throws {
        let engine = try engine()
        _ = await engine.result(FavoritesAddRequest(taxonId: 7))
        let file = Self.favoritesFile(engine.dataDirectory)
        #expect(try SQLiteCLI.run(file, "SELECT name FROM pragma_table_info('favorites') ORDER BY cid") == ["taxon_id", "created_at"])
        #expect(try SQLiteCLI.run(file, "SELECT type, name FROM sqlite_master ORDER BY name") == ["table|favorites", "index|idx_favorites_created"])
        #expect(try SQLiteCLI.run(file, "PRAGMA user_version") == ["1"])
        #expect(try SQLiteCLI.run(file, "PRAGMA journal_mode") == ["delete"])
        #expect(try SQLiteCLI.run(file, "PRAGMA integrity_check") == ["ok"])
    }

    /// Adds Escherichia coli, Panthera leo, Rosa canina, the unknown id and Panthera tigris, in that order.
    func addTheSet(_ engine: EngineProcess) async throws {
        for name in ["Escherichia coli", "Panthera leo", "Rosa canina"] {
            #expect(await engine.result(FavoritesAddRequest(taxonId: try Self.id(name)))?["added"] == true)
            try await Task.sleep(for: .milliseconds(5))
        }
        _ = await engine.result(FavoritesAddRequest(taxonId: Self.unknown))
        try await Task.sleep(for: .milliseconds(5))
        _ = await engine.result(FavoritesAddRequest(taxonId: try Self.id("Panthera tigris")))
    }

    @Test func listInTheThreeOrdersWithDisplayFields() async throws {
        let engine = try engine()
        try await addTheSet(engine)
        let (coli, leo, rosa, tiger) = (try Self.id("Escherichia coli"), try Self.id("Panthera leo"), try Self.id("Rosa canina"), try Self.id("Panthera tigris"))

        let recent = await engine.result(FavoritesListRequest(sort: .recent))
        #expect(ids(recent) == [tiger, Self.unknown, rosa, leo, coli])
        #expect(ids(await engine.result(FavoritesListRequest())) == ids(recent), "recent is the default")
        let entries = recent?["favorites"]?.arrayValue ?? []
        let createdAt = entries.compactMap { $0["createdAt"]?.stringValue }
        #expect(createdAt.count == 5 && createdAt == createdAt.sorted(by: >))
        #expect(createdAt.allSatisfy { $0.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil })
        let lion = try #require(entries.first { $0["taxonId"]?.int64Value == leo })
        #expect(lion["available"] == true && lion["scientificName"] == "Panthera leo" && lion["commonName"] == "Lion")
        #expect(lion["rank"] == "species" && lion["conservationStatus"] == "VU")
        let missing = try #require(entries.first { $0["taxonId"]?.int64Value == Self.unknown })
        guard case .object(let members) = missing else { Issue.record("not an object"); return }
        #expect(members.map(\.key).sorted() == ["available", "createdAt", "taxonId"])
        #expect(missing["available"] == false)

        #expect(ids(await engine.result(FavoritesListRequest(sort: .scientific))) == [coli, leo, tiger, rosa, Self.unknown])
        #expect(ids(await engine.result(FavoritesListRequest(sort: .common))) == [rosa, leo, tiger, coli, Self.unknown])
        // Spanish: León, English fallback for the others.
        let spanish = await engine.result(FavoritesListRequest(sort: .common, lang: "es"))
        #expect(spanish?["favorites"]?.arrayValue?.map { $0["commonName"]?.stringValue } == ["Dog rose", "León", "Tiger", nil, nil])
        #expect(spanish?["favorites"]?.arrayValue?.map { $0["commonNameLang"]?.stringValue } == ["en", "es", "en", nil, nil], "which fell back")
        let french = await engine.result(FavoritesListRequest(sort: .common, lang: "fr"))
        #expect(french?["favorites"]?.arrayValue?.map { $0["commonName"]?.stringValue } == ["Dog rose", "Lion", "Tigre", nil, nil])
        #expect(await engine.result(FavoritesCountRequest()) == .object(["count": 5]), "unavailable ids are kept")
    }

    @Test func exportTextIsExact() async throws {
        let engine = try engine()
        #expect(await engine.result(FavoritesExportRequest()) == .object([("lang", "en"), ("text", .string(Self.title + "\n\n"))]))
        try await addTheSet(engine)
        let scientific = await engine.result(FavoritesExportRequest(sort: .scientific))?["text"]?.stringValue
        #expect(scientific == """
            My Favourite Species — Species: Tree of Life

            1. Escherichia coli
            2. Panthera leo (Lion)
            3. Panthera tigris (Tiger)
            4. Rosa canina (Dog rose)

            """)
        let common = await engine.result(FavoritesExportRequest(sort: .common, lang: "es"))?["text"]?.stringValue
        #expect(common == "Mis especies favoritas — Species: Tree of Life\n\n1. Rosa canina (Dog rose)\n2. Panthera leo (León)\n3. Panthera tigris (Tiger)\n4. Escherichia coli\n")
        for (lang, title, used) in [("de", "Meine Lieblingsarten", "de"), ("de-AT", "Meine Lieblingsarten", "de"), ("fr", "Mes espèces favorites", "fr"), ("pt", "My Favourite Species", "en")] {
            let export = await engine.result(FavoritesExportRequest(lang: lang))
            let text = export?["text"]?.stringValue
            #expect(text?.hasPrefix(title + " — Species: Tree of Life\n\n1. ") == true, "\(lang): \(String(describing: text))")
            #expect(export?["lang"] == .string(used), "\(lang): the answer says which language the title is in")
        }
        let recent = await engine.result(FavoritesExportRequest(sort: .recent))?["text"]?.stringValue
        #expect(recent == Self.title + "\n\n1. Panthera tigris (Tiger)\n2. Rosa canina (Dog rose)\n3. Panthera leo (Lion)\n4. Escherichia coli\n")
    }

    @Test func badParamsNameTheField() async throws {
        let engine = try engine()
        let cases: [(any RPCRequest.Type, JSONValue, String)] = [
            (FavoritesAddRequest.self, .object(["taxonId": -1]), "taxonId"),
            (FavoritesAddRequest.self, .object(["taxonId": 0]), "taxonId"),
            (FavoritesAddRequest.self, .object(["taxonId": "12"]), "taxonId"),
            (FavoritesAddRequest.self, .object(["taxonId": .number("1.5")]), "taxonId"),
            (FavoritesAddRequest.self, .object(["taxonId": .number("9007199254740992")]), "taxonId"),
            (FavoritesAddRequest.self, .object([:]), "taxonId"),
            (FavoritesToggleRequest.self, .object(["taxonId": true]), "taxonId"),
            (FavoritesContainsRequest.self, .object(["taxonId": -5]), "taxonId"),
            (FavoritesContainsRequest.self, .object(["taxonIds": [1, -2]]), "taxonIds.1"),
            (FavoritesContainsRequest.self, .object(["taxonIds": [1, "x"]]), "taxonIds.1"),
            (FavoritesContainsRequest.self, .object([:]), "taxonId"),
            (FavoritesRemoveRequest.self, .object(["taxonIds": "1"]), "taxonIds"),
            (FavoritesRemoveRequest.self, .object(["taxonId": 1, "taxonIds": [2]]), "taxonIds"),
            (FavoritesRemoveRequest.self, .object(["taxonIds": [.number("2.5")]]), "taxonIds.0"),
            (FavoritesListRequest.self, .object(["sort": "random"]), "sort"),
            (FavoritesListRequest.self, .object(["lang": "English!"]), "lang"),
            (FavoritesExportRequest.self, .object(["sort": 1]), "sort"),
        ]
        for (method, params, field) in cases {
            let error = await engine.call(method, params: params)?["error"]
            #expect(error?["code"] == -32602, "\(method) \(params)")
            #expect(error?["data"]?["field"] == JSONValue.string(field), "\(method) \(params)")
        }
        #expect(await engine.result(FavoritesCountRequest()) == .object(["count": 0]), "nothing was stored")
        #expect(await Self.didChange(engine, timeout: .milliseconds(300)) == nil)
    }

    // MARK: Restarts, damage, crashes

    @Test func favouritesSurviveARestart() async throws {
        let data = Self.dataDirectory()
        var engines: [EngineProcess] = []
        defer { withExtendedLifetime(engines) {} }
        let first = try engine(data)
        engines.append(first)
        try await addTheSet(first)
        _ = await first.result(FavoritesToggleRequest(taxonId: try Self.id("Rosa canina")))
        let before = await first.result(FavoritesListRequest())
        first.closeStdin()
        #expect(await first.waitForExit() == 0)

        let second = try engine(data)
        engines.append(second)
        #expect(await second.result(FavoritesListRequest()) == before)
        #expect(await second.result(FavoritesCountRequest()) == .object(["count": 4]))
        #expect(await second.result(FavoritesStatusRequest())?["recovery"] == .null)
    }

    @Test func aDamagedFileIsMovedAsideAndAnEmptyListServed() async throws {
        let data = Self.dataDirectory()
        let file = Self.favoritesFile(data)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let garbage = Data("this is not a database, just some bytes a broken disk left behind\n".utf8 + (0..<8000).map { UInt8($0 % 251) })
        try garbage.write(to: file)
        var engines: [EngineProcess] = []
        defer { withExtendedLifetime(engines) {} }
        let engine = try engine(data)
        engines.append(engine)
        #expect(await engine.result(FavoritesListRequest()) == .object(["favorites": []]))
        let recovery = try #require(await engine.result(FavoritesStatusRequest())?["recovery"])
        let name = try #require(recovery["movedAsideTo"]?.stringValue)
        #expect(name.hasPrefix("favorites.sqlite.corrupt-") && !name.contains("/"))
        #expect(recovery["at"]?.stringValue?.hasSuffix("Z") == true)
        #expect(await engine.result(DatabaseInfoRequest())?["favoritesRecovery"] == recovery, "database/info reports it too")
        #expect(try Data(contentsOf: file.deletingLastPathComponent().appendingPathComponent(name)) == garbage, "kept, byte for byte")
        #expect(engine.stderrText.contains("moved it aside"))
        #expect(await engine.result(FavoritesAddRequest(taxonId: 3))?["added"] == true)
        #expect(try SQLiteCLI.run(file, "PRAGMA integrity_check") == ["ok"])
        engine.closeStdin()
        _ = await engine.waitForExit()

        let again = try self.engine(data)
        engines.append(again)
        #expect(await again.result(FavoritesCountRequest()) == .object(["count": 1]))
        #expect(await again.result(FavoritesStatusRequest())?["recovery"] == .null, "the move is reported by the engine that made it")
        #expect(await again.result(DatabaseInfoRequest())?["favoritesRecovery"] == nil)
        #expect(FileManager.default.fileExists(atPath: file.deletingLastPathComponent().appendingPathComponent(name).path))
    }

    /// The first call of a screen that shows start-up problems sees the damage: `database/info`
    /// opens the file, before any favourites call. Without a file it creates none.
    @Test func databaseInfoReportsAFileDamagedAtStartUp() async throws {
        let data = Self.dataDirectory()
        let file = Self.favoritesFile(data)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 8192).write(to: file)
        var engines: [EngineProcess] = []
        defer { withExtendedLifetime(engines) {} }
        let engine = try engine(data)
        engines.append(engine)
        let recovery = try #require(await engine.result(DatabaseInfoRequest())?["favoritesRecovery"])
        #expect(recovery["movedAsideTo"]?.stringValue?.hasPrefix("favorites.sqlite.corrupt-") == true, "\(recovery)")
        #expect(await engine.result(FavoritesStatusRequest())?["recovery"] == recovery, "the same recovery the favourites methods report")

        let fresh = Self.dataDirectory()
        let clean = try self.engine(fresh)
        engines.append(clean)
        #expect(await clean.result(DatabaseInfoRequest())?["favoritesRecovery"] == nil)
        #expect(!FileManager.default.fileExists(atPath: Self.favoritesFile(fresh).path), "nothing created")
    }

    @Test func aNewerFileOrAnUnusableFolderLeavesBrowsingWorking() async throws {
        let data = Self.dataDirectory()
        let file = Self.favoritesFile(data)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = try SQLiteCLI.run(file, "CREATE TABLE favorites(taxon_id INTEGER PRIMARY KEY, created_at TEXT NOT NULL, extra TEXT); INSERT INTO favorites VALUES (1, 'x', 'y'); PRAGMA user_version = 9;")
        let before = try Data(contentsOf: file)
        var engines: [EngineProcess] = []
        defer { withExtendedLifetime(engines) {} }
        let engine = try engine(data)
        engines.append(engine)
        let error = await engine.call(FavoritesAddRequest(taxonId: 2))?["error"]
        #expect(error?["code"] == -32010)
        #expect(error?["data"]?["kind"] == "favoritesNewerVersion")
        #expect(await engine.call(FavoritesCountRequest())?["error"]?["data"]?["kind"] == "favoritesNewerVersion")
        #expect(await engine.result(TaxonRootsRequest())?["roots"]?.arrayValue?.count == 2, "browsing still works")
        #expect(try Data(contentsOf: file) == before, "not touched")

        let blocked = Self.dataDirectory()
        try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: true)
        try Data("a file where the Favorites folder should be".utf8).write(to: blocked.appendingPathComponent("Favorites"))
        let other = try self.engine(blocked)
        engines.append(other)
        let unavailable = await other.call(FavoritesListRequest())?["error"]
        #expect(unavailable?["code"] == -32010 && unavailable?["data"]?["kind"] == "favoritesUnavailable")
        #expect(await other.result(DatabaseInfoRequest())?["taxaCount"] != nil)
    }

    /// SIGKILL in the middle of a burst, ten times on one data directory: after every restart the
    /// file passes integrity_check and holds every acknowledged change, in arrival order.
    @Test func acknowledgedChangesSurviveSIGKILL() async throws {
        let data = Self.dataDirectory()
        let file = Self.favoritesFile(data)
        var engines: [EngineProcess] = []
        defer { withExtendedLifetime(engines) {} }
        let ids = Array(Int64(1)...Int64(24))
        // Every state the file may hold: the states after each prefix of the last burst that
        // includes its last acknowledged request.
        var allowed: [[Int64: Bool]] = [Dictionary(uniqueKeysWithValues: ids.map { ($0, false) })]
        var generator = SplitMix64(seed: 0x5EED)
        var killedMidBurst = 0

        for round in 0..<11 {
            let engine = try engine(data)
            engines.append(engine)
            let contains = await engine.result(FavoritesContainsRequest(taxonIds: ids))
            var state: [Int64: Bool] = [:]
            for id in ids { state[id] = contains?["favorites"]?[String(id)] == true }
            #expect(allowed.contains(state), "round \(round): state after restart is not one the acknowledged requests allow")
            #expect(await engine.result(FavoritesStatusRequest())?["recovery"] == .null, "round \(round): nothing was damaged")
            #expect(try SQLiteCLI.run(file, "PRAGMA integrity_check") == ["ok"], "round \(round)")
            #expect(Set(try SQLiteCLI.run(file, "SELECT taxon_id FROM favorites").compactMap { Int64($0) }) == Set(ids.filter { state[$0] == true }))
            if round == 10 { break }

            // A burst of requests, written all at once, each applied in arrival order.
            typealias Op = FavoritesBurst.Change
            let count = 1500
            let base = 1_000_000 * (round + 1)
            var ops: [(Op, Int64)] = []
            var lines = ""
            for i in 0..<count {
                let op: Op = [.toggle, .toggle, .toggle, .add, .remove][Int(generator.next() % 5)]
                let id = ids[Int(generator.next() % UInt64(ids.count))]
                ops.append((op, id))
                let method = op == .add ? "favorites/add" : op == .remove ? "favorites/remove" : "favorites/toggle"
                lines += #"{"jsonrpc":"2.0","id":\#(base + i),"method":"\#(method)","params":{"taxonId":\#(id)}}"# + "\n"
            }
            let bytes = Array(lines.utf8)
            Thread { engine.sendBytes(bytes) }.start()
            let killAfter = 5 + Int(generator.next() % UInt64(count / 2))
            let deadline = ContinuousClock.now + .seconds(30)
            var acknowledgedAtKill = 0
            while ContinuousClock.now < deadline {
                acknowledgedAtKill = engine.pendingLines.count { $0.contains(#""result""#) }
                if acknowledgedAtKill >= killAfter { break }
                try await Task.sleep(for: .milliseconds(1))
            }
            kill(engine.process.processIdentifier, SIGKILL)
            _ = await engine.waitForExit()
            try await Task.sleep(for: .milliseconds(100))  // let the reader drain the pipe
            if acknowledgedAtKill < count { killedMidBurst += 1 }

            // Acknowledged requests, and a check of each toggle's answer against the model.
            var acknowledged: [Int: JSONValue] = [:]
            for line in engine.pendingLines {
                guard let message = try? JSONParser.parse(Array(line.utf8)), let id = message["id"]?.int64Value else { continue }
                #expect(message["error"] == nil, "round \(round): \(line)")
                if let result = message["result"] { acknowledged[Int(id) - base] = result }
            }
            let last = acknowledged.keys.max() ?? -1
            allowed = FavoritesBurst.allowedStates(from: state, ops, acknowledged: acknowledged, label: "round \(round)")
            #expect(Set(acknowledged.keys) == Set(0..<(last + 1)), "round \(round): answers come in arrival order")
        }
        #expect(killedMidBurst >= 5, "most kills should land while requests are still flowing")
    }
}
