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

/// Many thousands of mixed requests in flight while the reference database is switched on and
/// off: every request is answered exactly once, every answer is one the database it could have
/// run on gives, favourites follow their model, and memory stays bounded.
@Suite(.serialized) struct LoadTests {
    /// Requests in the mixed phase; `STOL_LOAD_REQUESTS` raises it (RELIABILITY.md uses 100,000).
    static var requestCount: Int { Int(ProcessInfo.processInfo.environment["STOL_LOAD_REQUESTS"] ?? "") ?? 10_000 }
    /// Requests the client keeps in flight (sent and not yet answered).
    static let window = 1_500
    /// Resident memory the engine must stay under during the run (generous: a leak or an
    /// unbounded queue grows far past it, normal use stays well below).
    static let ceilingKiB = 512 * 1024

    /// A read request and the exact answer (the bytes after the id) each database gives it.
    struct Read {
        var method: String
        var params: JSONValue
        var onBundled = ""
        var onReference = ""
    }

    /// A response line cut after its id: `{"jsonrpc":"2.0","id":N` then `,"result":…}` or
    /// `,"error":…}`. Nil for notifications and for ids that are not plain integers.
    static func split(_ line: String) -> (id: Int, body: Substring)? {
        let prefix = #"{"jsonrpc":"2.0","id":"#
        guard line.hasPrefix(prefix) else { return nil }
        let rest = line.dropFirst(prefix.count)
        guard let comma = rest.firstIndex(of: ","), let id = Int(rest[..<comma]) else { return nil }
        return (id, rest[comma...])
    }

    static func request(_ id: Int, _ method: String, _ params: JSONValue?) -> String {
        var message: [(key: String, value: JSONValue)] = [("jsonrpc", "2.0"), ("id", .integer(id)), ("method", .string(method))]
        if let params { message.append(("params", params)) }
        return JSONValue.object(message).description
    }

    /// Sends `requests` pipelined (at most `window` unanswered) and returns each answer's body.
    static func answers(_ engine: EngineProcess, _ requests: [(id: Int, line: String)]) async throws -> [Int: String] {
        var bodies: [Int: String] = [:]
        var sent = 0
        var lastProgress = ContinuousClock.now
        while bodies.count < requests.count {
            if sent < requests.count, sent - bodies.count < window {
                let end = min(requests.count, sent + 256)
                engine.sendLine(requests[sent..<end].map(\.line).joined(separator: "\n"))
                sent = end
            }
            let lines = engine.takeLines()
            for line in lines {
                guard let (id, body) = split(line) else { continue }
                #expect(bodies[id] == nil, "answered twice: \(id)")
                bodies[id] = String(body)
            }
            if lines.isEmpty {
                try #require(ContinuousClock.now - lastProgress < .seconds(60), "no answer for 60 s: \(bodies.count)/\(requests.count)")
                try await Task.sleep(for: .milliseconds(1))
            } else {
                lastProgress = ContinuousClock.now
            }
        }
        return bodies
    }

    static func ids(_ database: URL, _ sql: String) throws -> [Int64] {
        try SQLiteCLI.run(database, sql, readOnly: true).compactMap { Int64($0) }
    }

    /// Every `step`-th element, so a sample spreads over the whole list.
    static func spread<T>(_ all: [T], count: Int) -> [T] {
        guard all.count > count else { return all }
        let step = Double(all.count) / Double(count)
        return (0..<count).map { all[Int(Double($0) * step)] }
    }

    /// The read requests of the mix: browse, search and compare, on taxa that exist in both
    /// databases, in only one, or in neither.
    static func readPool(bundled: URL, fixture: URL, favoriteIDs: [Int64]) throws -> [Read] {
        let fixtureIDs = try ids(fixture, "SELECT id FROM taxa ORDER BY id")
        let bundledIDs = spread(try ids(bundled, "SELECT id FROM taxa ORDER BY id"), count: 60)
        let fixtureSpecies = try ids(fixture, "SELECT id FROM taxa WHERE rank = 'species' ORDER BY id")
        let bundledSpecies = spread(try ids(bundled, "SELECT id FROM taxa WHERE rank = 'species' ORDER BY id"), count: 25)
        let everyID = Array(Set(fixtureIDs + bundledIDs + favoriteIDs + [424242])).sorted()
        var pool: [Read] = []
        for (i, id) in everyID.enumerated() {
            pool.append(Read(method: "taxon/get", params: .object(["id": .integer(id)])))
            pool.append(Read(method: "taxon/ancestors", params: .object(["id": .integer(id), "lang": i % 3 == 0 ? "fr" : "en"])))
            pool.append(Read(method: "taxon/children", params: .object(["id": .integer(id), "limit": .integer(1 + i % 20)])))
            pool.append(Read(method: "taxon/detail", params: .object(["id": .integer(id), "lang": i % 2 == 0 ? "es" : "en"])))
        }
        for lang in ["en", "fr", "de"] { pool.append(Read(method: "taxon/roots", params: .object(["lang": .string(lang)]))) }
        let queries = ["panthera", "lion", "lyon", "cat", "tiger", "rosa", "dog", "coli", "testus", "testus species1",
                       "\"big cats\"", "leo lion", "elefant", "wolf", "mammals", "Pnathera leo", "rose", "bacillus", "zzz", ""]
        for (i, query) in queries.enumerated() {
            pool.append(Read(method: "search/query", params: .object(["query": .string(query), "limit": .integer(5 + i % 16)])))
        }
        for prefix in ["pan", "li", "ti", "ro", "test", "ca", "wo", "e", "fel", "b"] {
            pool.append(Read(method: "search/autocomplete", params: .object(["prefix": .string(prefix), "limit": 8])))
        }
        var generator = SplitMix64(seed: 0x10AD)
        let pairIDs = fixtureIDs + bundledIDs
        for _ in 0..<60 {
            let a = pairIDs[Int(generator.next() % UInt64(pairIDs.count))], b = pairIDs[Int(generator.next() % UInt64(pairIDs.count))]
            pool.append(Read(method: "compare/taxa", params: .object(["a": .integer(a), "b": .integer(b)])))
        }
        for (i, species) in (fixtureSpecies + bundledSpecies).enumerated() {
            pool.append(Read(method: "compare/relatives", params: .object(["id": .integer(species), "n": .integer(1 + i % 8)])))
        }
        return pool
    }

    /// A favourites change, applied in arrival order.
    enum Change { case add, remove, toggle }

    @Test func mixedRequestsWhileSwitchingAreAnsweredOnceAndCorrectly() async throws {
        let started = ContinuousClock.now
        let kit = try ReferenceTests.kit.get()
        let bundled = EngineBinary.repositoryRoot.appendingPathComponent("Sources/STOLEngine/Resources/default.sqlite")
        // Favourites: taxa in both databases, only in the bundled one, only in the fixture, in neither.
        let shared = try Self.ids(kit.database, "SELECT id FROM taxa WHERE scientific_name IN ('Panthera leo', 'Panthera tigris', 'Felis catus', 'Canis lupus', 'Rosa canina', 'Escherichia coli', 'Felidae', 'Animalia') ORDER BY id")
        let fixtureOnly = try Self.ids(kit.database, "SELECT id FROM taxa WHERE scientific_name LIKE 'Testus species0%' ORDER BY id").prefix(6)
        let bundledOnly = try Self.ids(bundled, "SELECT id FROM taxa WHERE rank = 'species' AND scientific_name NOT IN ('Panthera leo', 'Panthera tigris', 'Felis catus', 'Canis lupus', 'Rosa canina', 'Escherichia coli') ORDER BY id LIMIT 8")
        let favoriteIDs = shared + fixtureOnly + bundledOnly + [424242, 424243]
        try #require(favoriteIDs.count == 24 && Set(favoriteIDs).count == 24, "\(favoriteIDs)")
        var pool = try Self.readPool(bundled: bundled, fixture: kit.database, favoriteIDs: favoriteIDs)

        let data = ReferenceTests.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let engine = try EngineProcess(["--trusted-key", kit.publicKey, "--log-level", "warning"], dataDirectory: data)
        let pid = engine.process.processIdentifier
        #expect(await engine.result(PingRequest()) == .object([]))

        // Each read's answer on each database alone.
        let onBundled = try await Self.answers(engine, pool.indices.map { ($0, Self.request($0, pool[$0].method, pool[$0].params)) })
        try await ReferenceTests().importFixture(engine)
        let onReference = try await Self.answers(engine, pool.indices.map { ($0, Self.request($0, pool[$0].method, pool[$0].params)) })
        for i in pool.indices {
            pool[i].onBundled = try #require(onBundled[i])
            pool[i].onReference = try #require(onReference[i])
        }
        let differing = pool.count { $0.onBundled != $0.onReference }
        #expect(differing > pool.count / 4, "the two databases should answer many reads differently: \(differing)/\(pool.count)")
        // Which favourite ids each database has, from the precomputed `taxon/get` answers.
        var exists: [Bool: [Int64: Bool]] = [false: [:], true: [:]]
        var names: [Bool: [Int64: String]] = [false: [:], true: [:]]
        for read in pool where read.method == "taxon/get" {
            let id = try #require(read.params["id"]?.int64Value)
            for (reference, body) in [(false, read.onBundled), (true, read.onReference)] {
                let value = try #require(try? JSONParser.parse(Array(("{\"x\":0" + body).utf8)))
                exists[reference]![id] = value["result"] != nil
                names[reference]![id] = value["result"]?["scientificName"]?.stringValue
            }
        }
        let idleKiB = ProcessMemory.read(pid)?.rss ?? 0
        _ = engine.takeLines()

        // The mixed run. What each request is, and what it must answer.
        enum Expectation {
            case read(Int)
            case change(index: Int, Change, Int64, state: Bool, reference: Bool)
            case list(minimumChanges: Int)
            case switchTo(Bool)
        }
        let total = Self.requestCount
        let switchEvery = max(50, total / 100)
        var generator = SplitMix64(seed: 0x5717C4)
        var lines: [String] = []
        var expected: [Expectation] = []
        var model = Set<Int64>()
        var history: [Set<Int64>] = [model]  // the favourites after each prefix of the changes
        var changeCounts: [Int] = []  // `favorites/didChange` counts due, in order
        var referenceActive = true
        var switches = 0
        let base = 1_000_000
        for i in 0..<total {
            let id = base + i
            if i % switchEvery == switchEvery - 1 {
                referenceActive.toggle()
                switches += 1
                lines.append(Self.request(id, referenceActive ? "database/activateReference" : "database/deactivateReference", nil))
                expected.append(.switchTo(referenceActive))
                continue
            }
            let roll = generator.next() % 100
            if roll < 72 {
                let read = Int(generator.next() % UInt64(pool.count))
                lines.append(Self.request(id, pool[read].method, pool[read].params))
                expected.append(.read(read))
            } else if roll < 94 {
                let change: Change = [.add, .remove, .toggle, .toggle][Int(generator.next() % 4)]
                let taxon = favoriteIDs[Int(generator.next() % UInt64(favoriteIDs.count))]
                let before = model.contains(taxon)
                switch change {
                case .add: model.insert(taxon)
                case .remove: model.remove(taxon)
                case .toggle: if before { model.remove(taxon) } else { model.insert(taxon) }
                }
                if model.contains(taxon) != before { changeCounts.append(model.count) }
                let method = change == .add ? "favorites/add" : change == .remove ? "favorites/remove" : "favorites/toggle"
                lines.append(Self.request(id, method, .object(["taxonId": .integer(taxon)])))
                expected.append(.change(index: history.count, change, taxon, state: before, reference: referenceActive))
                history.append(model)
            } else {
                lines.append(Self.request(id, "favorites/list", .object(["sort": i % 2 == 0 ? "scientific" : "recent"])))
                expected.append(.list(minimumChanges: 0))
            }
        }

        // Send with at most `window` unanswered; check every answer as it comes.
        let sampler = MemorySampler(pid: pid)
        var answered = [Bool](repeating: false, count: total)
        var answeredCount = 0
        var sent = 0
        var appliedChanges = 0  // every change up to the latest acknowledged one has been applied
        var onEach: [Bool: Int] = [false: 0, true: 0]
        var onBoth = 0
        var switchNotices = 0
        var changeNotices: [Int] = []
        var failures: [String] = []
        var lastProgress = ContinuousClock.now
        func fail(_ text: String) { if failures.count < 20 { failures.append(text) } }

        while answeredCount < total {
            while sent < total, sent - answeredCount < Self.window {
                let end = min(total, sent + 128)
                for i in sent..<end {
                    // A list may see any state from the changes acknowledged before it was sent on.
                    if case .list = expected[i] { expected[i] = .list(minimumChanges: appliedChanges) }
                }
                engine.sendLine(lines[sent..<end].joined(separator: "\n"))
                sent = end
            }
            let received = engine.takeLines()
            if received.isEmpty {
                if !engine.process.isRunning { fail("the engine died: \(engine.process.terminationStatus)"); break }
                if ContinuousClock.now - lastProgress > .seconds(60) { fail("no answer for 60 s at \(answeredCount)/\(total)"); break }
                try await Task.sleep(for: .milliseconds(1))
                continue
            }
            lastProgress = ContinuousClock.now
            for line in received {
                guard let (rawID, body) = Self.split(line) else {
                    if line.hasPrefix(#"{"jsonrpc":"2.0","method":"database/didSwitch""#) {
                        switchNotices += 1
                    } else if line.hasPrefix(#"{"jsonrpc":"2.0","method":"favorites/didChange""#),
                              let count = (try? JSONParser.parse(Array(line.utf8)))?["params"]?["count"]?.int64Value {
                        changeNotices.append(Int(count))
                    } else {
                        fail("unexpected line: \(line.prefix(200))")
                    }
                    continue
                }
                let i = rawID - base
                guard i >= 0, i < total else { fail("unknown id \(rawID)"); continue }
                guard !answered[i] else { fail("answered twice: \(rawID)"); continue }
                answered[i] = true
                answeredCount += 1
                switch expected[i] {
                case .read(let r):
                    let read = pool[r]
                    let matchesBundled = body == read.onBundled, matchesReference = body == read.onReference
                    if matchesBundled && matchesReference {
                        onBoth += 1
                    } else if matchesBundled || matchesReference {
                        onEach[matchesReference]! += 1
                    } else {
                        fail("\(read.method) \(read.params) #\(rawID) answered \(body), which neither database gives (bundled: \(read.onBundled); reference: \(read.onReference))")
                    }
                case let .change(index, change, taxon, before, reference):
                    appliedChanges = max(appliedChanges, index)
                    guard let result = (try? JSONParser.parse(Array(("{\"x\":0" + body).utf8)))?["result"] else {
                        fail("change #\(rawID) failed: \(body.prefix(300))"); continue
                    }
                    let available = JSONValue.bool(exists[reference]![taxon] ?? false)
                    let due: JSONValue = switch change {
                    case .add: .object(["added": .bool(!before), "available": available])
                    case .remove: .object(["removed": before ? 1 : 0])
                    case .toggle: .object(["available": available, "isFavorite": .bool(!before)])
                    }
                    if result != due { fail("change #\(rawID) (\(change) \(taxon)) answered \(result), the model says \(due)") }
                case .list(let minimum):
                    guard let entries = (try? JSONParser.parse(Array(("{\"x\":0" + body).utf8)))?["result"]?["favorites"]?.arrayValue else {
                        fail("list #\(rawID) failed: \(body.prefix(300))"); continue
                    }
                    let listed = Set(entries.compactMap { $0["taxonId"]?.int64Value })
                    if listed.count != entries.count || !history[minimum...].contains(listed) {
                        fail("list #\(rawID) holds \(listed.sorted()), no state after \(minimum) or more changes")
                    }
                    // Its display fields all come from one database.
                    let consistent = [false, true].contains { reference in
                        entries.allSatisfy { entry in
                            guard let taxon = entry["taxonId"]?.int64Value else { return false }
                            let has = exists[reference]![taxon] ?? false
                            return entry["available"] == .bool(has) && entry["scientificName"]?.stringValue == (has ? names[reference]![taxon] : nil)
                        }
                    }
                    if !consistent { fail("list #\(rawID) mixes the databases: \(body.prefix(400))") }
                case .switchTo(let active):
                    let result = (try? JSONParser.parse(Array(("{\"x\":0" + body).utf8)))?["result"]
                    if result?["isReferenceActive"] != .bool(active) || result?["source"] != (active ? "reference" : "bundled") {
                        fail("switch #\(rawID) to \(active ? "reference" : "bundled") answered \(body.prefix(300))")
                    }
                }
            }
        }
        sampler.stop()
        let elapsed = ContinuousClock.now - started
        for failure in failures { Issue.record(Comment(rawValue: failure)) }
        #expect(answeredCount == total, "answered \(answeredCount) of \(total)")
        #expect(answered.allSatisfy { $0 }, "every request answered")

        // Nothing more arrives; notifications match the changes; the final state is the model's.
        try await Task.sleep(for: .milliseconds(300))
        let late = engine.takeLines()
        #expect(late.isEmpty, "lines after the last answer: \(late.prefix(3))")
        #expect(switchNotices == switches, "one database/didSwitch per switch")
        #expect(changeNotices == changeCounts, "favorites/didChange counts follow the model in order")
        let contains = await engine.result(FavoritesContainsRequest(taxonIds: favoriteIDs))
        for taxon in favoriteIDs {
            #expect(contains?["favorites"]?[String(taxon)] == JSONValue.bool(model.contains(taxon)), "final state of \(taxon)")
        }
        #expect(await engine.result(DatabaseInfoRequest())?["source"] == (referenceActive ? "reference" : "bundled"))
        #expect(engine.process.isRunning, "no crash")

        let peakKiB = sampler.peakKiB
        let hwmKiB = ProcessMemory.read(pid)?.peak ?? 0
        #expect(peakKiB > 0 && peakKiB < Self.ceilingKiB, "peak VmRSS \(peakKiB) KiB")
        #expect(hwmKiB < Self.ceilingKiB, "VmHWM \(hwmKiB) KiB")
        engine.closeStdin()
        #expect(await engine.waitForExit(timeout: .seconds(30)) == 0)
        let reads = onBoth + onEach[false]! + onEach[true]!
        print("""
            LoadTests: \(total) requests (\(reads) reads from a pool of \(pool.count), \(differing) of them answered differently \
            by the two databases; \(history.count - 1) favourites changes; \(total - reads - switches - history.count + 1) lists; \
            \(switches) switches), window \(Self.window); reads answered as on bundled only \(onEach[false]!), reference only \
            \(onEach[true]!), either \(onBoth); VmRSS idle \(idleKiB) KiB, peak sampled \(peakKiB) KiB \
            (\(sampler.all.count) samples), VmHWM \(hwmKiB) KiB; \(elapsed) in all
            """)
    }
}
