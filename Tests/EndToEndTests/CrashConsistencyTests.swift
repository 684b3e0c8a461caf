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

/// SIGKILL while the engine both imports a signed database and applies a burst of favourites
/// changes: after every restart the favourites file is intact and holds every acknowledged
/// change, the reference database is exactly the old or the new one, and tmp/ is empty.
@Suite(.serialized) struct CrashConsistencyTests {
    /// Kills per run; `STOL_COMBINED_KILLS` raises it (RELIABILITY.md uses 120).
    static var kills: Int { Int(ProcessInfo.processInfo.environment["STOL_COMBINED_KILLS"] ?? "") ?? 20 }
    /// The seed of the kill moments and bursts; `STOL_COMBINED_SEED` replays another run.
    static var seed: UInt64 { UInt64(ProcessInfo.processInfo.environment["STOL_COMBINED_SEED"] ?? "") ?? 0xC0_FFEE }

    typealias Change = FavoritesBurst.Change

    @Test func killsDuringImportsAndFavouriteBurstsLoseNothing() async throws {
        let started = ContinuousClock.now
        let kit = try ReferenceTests.kit.get()
        let big = EngineBinary.repositoryRoot.appendingPathComponent("Sources/STOLEngine/Resources/default.sqlite")
        let bigStol = kit.file("combined-default.stol")
        if !FileManager.default.fileExists(atPath: bigStol.path) { try ReferenceTests.pack(big, key: kit.key, out: bigStol) }
        let candidates: [(stol: URL, database: Data)] = [(kit.stol, try Data(contentsOf: kit.database)), (bigStol, try Data(contentsOf: big))]
        // Taxa of the fixture (most are in the embedded database too), and one neither has.
        let ids = Array(try SQLiteCLI.run(kit.database, "SELECT id FROM taxa ORDER BY id LIMIT 23", readOnly: true).compactMap { Int64($0) }) + [424242]
        try #require(ids.count == 24)

        let data = ReferenceTests.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let favorites = data.appendingPathComponent("Favorites/favorites.sqlite")
        var generator = SplitMix64(seed: Self.seed)
        func next(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
        // Every favourites state the file may hold after the last kill.
        var allowed: [[Int64: Bool]] = [Dictionary(uniqueKeysWithValues: ids.map { ($0, false) })]
        var installed: Data? = nil
        var lastTarget: Data? = nil  // the database the previous round was importing
        var tally = (midImport: 0, midBurst: 0, both: 0, acknowledged: 0, sent: 0, installs: 0, partial: 0, leftovers: 0)
        var engines: [EngineProcess] = []
        defer { withExtendedLifetime(engines) {} }

        for round in 0...Self.kills {
            let label = "round \(round) (seed \(Self.seed))"
            let engine = try EngineProcess(["--trusted-key", kit.publicKey, "--log-level", "error"], dataDirectory: data)
            engines.append(engine)

            // After the restart: the reference is whole, tmp/ is empty, favourites lost nothing.
            let info = await engine.result(DatabaseInfoRequest())
            #expect(info != nil, "\(label): the engine answers")
            let leftovers = ReferenceTests.tmpFiles(data)
            if !leftovers.isEmpty { tally.leftovers += 1 }
            #expect(leftovers.isEmpty, "\(label): \(leftovers)")
            let file = ReferenceTests.referenceFile(data)
            if FileManager.default.fileExists(atPath: file.path) {
                let bytes = try Data(contentsOf: file)
                let whole = candidates.contains { $0.database == bytes }
                if !whole { tally.partial += 1 }
                #expect(whole, "\(label): a partial reference database (\(bytes.count) bytes)")
                #expect(bytes == installed || bytes == lastTarget, "\(label): neither the old nor the new database")
                if bytes != installed { tally.installs += 1 }
                installed = bytes
                if info?["source"] == "reference" {
                    #expect(try SQLiteCLI.run(file, "PRAGMA integrity_check", readOnly: true) == ["ok"], "\(label)")
                    let count = try SQLiteCLI.run(file, "SELECT count(*) FROM taxa", readOnly: true).first.flatMap(Int.init)
                    #expect(info?["taxaCount"] == count.map { .integer($0) }, "\(label): the active database is the installed file")
                }
            } else {
                #expect(installed == nil, "\(label): an installed reference database disappeared")
                #expect(info?["source"] == "bundled", "\(label)")
            }
            let contains = await engine.result(FavoritesContainsRequest(taxonIds: ids))
            var state: [Int64: Bool] = [:]
            for id in ids { state[id] = contains?["favorites"]?[String(id)] == true }
            #expect(allowed.contains(state), "\(label): the favourites are not a state the acknowledged changes allow")
            #expect(await engine.result(FavoritesStatusRequest())?["recovery"] == .null, "\(label): nothing was damaged")
            #expect(try SQLiteCLI.run(favorites, "PRAGMA integrity_check") == ["ok"], "\(label)")
            #expect(Set(try SQLiteCLI.run(favorites, "SELECT taxon_id FROM favorites").compactMap { Int64($0) }) == Set(ids.filter { state[$0] == true }), "\(label)")
            if round == Self.kills { break }

            // An import and a burst of changes at once, then SIGKILL at a seeded moment.
            let target = candidates[next(2)]
            lastTarget = target.database
            engine.sendRequest(DatabaseImportRequest(path: target.stol.path), id: 1, progressToken: "combined")
            let count = 800
            let base = 1_000_000 * (round + 1)
            var ops: [(Change, Int64)] = []
            var burst = ""
            for i in 0..<count {
                let op: Change = [.toggle, .toggle, .add, .remove][next(4)]
                let id = ids[next(ids.count)]
                ops.append((op, id))
                let method = op == .add ? "favorites/add" : op == .remove ? "favorites/remove" : "favorites/toggle"
                burst += #"{"jsonrpc":"2.0","id":\#(base + i),"method":"\#(method)","params":{"taxonId":\#(id)}}"# + "\n"
            }
            let bytes = Array(burst.utf8)
            Thread { engine.sendBytes(bytes) }.start()
            tally.sent += count

            let mode = next(3)
            let reportsBeforeKill = 1 + next(6), acksBeforeKill = 5 + next(300), delay = next(150)
            var lines: [String] = []
            var reports = 0, acks = 0
            let start = ContinuousClock.now
            while ContinuousClock.now - start < .seconds(20) {
                for line in engine.takeLines() {
                    lines.append(line)
                    if line.contains(#""method":"$/progress""#), line.contains(#""kind":"report""#) { reports += 1 }
                    if line.contains(#""result""#), !line.hasPrefix(#"{"jsonrpc":"2.0","id":1,"#) { acks += 1 }
                }
                let due = switch mode {
                case 0: reports >= reportsBeforeKill  // certainly while the import runs
                case 1: acks >= acksBeforeKill  // certainly while the burst flows
                default: ContinuousClock.now - start >= .milliseconds(delay)  // anywhere, up to the install
                }
                if due { break }
                try await Task.sleep(for: .milliseconds(1))
            }
            kill(engine.process.processIdentifier, SIGKILL)
            _ = await engine.waitForExit()
            try await Task.sleep(for: .milliseconds(100))  // let the reader drain the pipe
            lines += engine.takeLines()

            // What was acknowledged; each toggle's answer checked against the model.
            var acknowledged: [Int: JSONValue] = [:]
            var importAnswered = false
            for line in lines {
                guard let message = try? JSONParser.parse(Array(line.utf8)), let id = message["id"]?.int64Value else { continue }
                if id == 1 { importAnswered = true; continue }
                #expect(message["error"] == nil, "\(label): \(line)")
                if let result = message["result"] { acknowledged[Int(id) - base] = result }
            }
            let last = acknowledged.keys.max() ?? -1
            tally.acknowledged += acknowledged.count
            #expect(Set(acknowledged.keys) == Set(0..<(last + 1)), "\(label): changes are answered in arrival order")
            allowed = FavoritesBurst.allowedStates(from: state, ops, acknowledged: acknowledged, label: label)
            if !importAnswered { tally.midImport += 1 }
            if acknowledged.count < count { tally.midBurst += 1 }
            if !importAnswered && acknowledged.count < count { tally.both += 1 }
        }
        #expect(tally.both >= Self.kills / 4, "kills should land while both an import and a burst run (seed \(Self.seed))")
        print("""
            CrashConsistencyTests: \(Self.kills) kills (seed \(Self.seed)): \(tally.midImport) mid-import, \(tally.midBurst) \
            mid-burst, \(tally.both) during both; \(tally.sent) favourites changes sent, \(tally.acknowledged) acknowledged, none \
            lost; \(tally.installs) reference installs seen, \(tally.partial) partial databases, \(tally.leftovers) restarts \
            with temporary files; \(ContinuousClock.now - started) in all
            """)
    }
}
