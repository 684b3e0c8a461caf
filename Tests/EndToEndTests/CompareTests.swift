import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLTestSupport
import Testing

/// `compare/*` over the real binary, on the fixture database and on the embedded one.
@Suite(.serialized) struct CompareTests {
    static let database = Result { try Fixtures.buildDatabase() }
    /// The same taxa with no precomputed relatives.
    static let withoutRelatives = Result { try Fixtures.buildDatabase(extraArguments: ["--top-n", "0"]) }

    func engine(_ database: URL? = nil) throws -> EngineProcess {
        try EngineProcess(["--database", (try database ?? Self.database.get()).path])
    }

    func id(_ name: String, in file: URL? = nil) throws -> Int64 {
        let rows = try EmbeddedDatabaseTests.query("SELECT id FROM taxa WHERE scientific_name = '\(name)'", try file ?? Self.database.get())
        return try #require(rows.first.flatMap { Int64($0) }, "\(name)")
    }

    func compare(_ engine: EngineProcess, _ a: String, _ b: String, lang: String? = nil) async throws -> JSONValue? {
        await engine.call(CompareTaxaRequest(a: try id(a), b: try id(b), lang: lang))
    }

    static func names(_ taxa: JSONValue?) -> [String] { taxa?.arrayValue?.compactMap { $0["scientificName"]?.stringValue } ?? [] }

    @Test func sameGenus() async throws {
        let engine = try engine()
        let result = try #require(try await compare(engine, "Panthera leo", "Panthera tigris")?["result"])
        #expect(result["a"]?["scientificName"] == "Panthera leo")
        #expect(result["b"]?["scientificName"] == "Panthera tigris")
        #expect(result["lca"]?["scientificName"] == "Panthera")
        #expect(result["taxonomicDistance"] == 2)
        #expect(Self.names(result["pathFromA"]) == ["Panthera leo", "Panthera"])
        #expect(Self.names(result["pathFromB"]) == ["Panthera tigris", "Panthera"])
        #expect(result["sharedCladeDescription"] == "Both are in genus Panthera (Big cats)")
        // {diet=carnivore, habitat=savanna} and {diet=carnivore}
        #expect(result["traitSimilarity"]?.doubleValue == 0.5)
        #expect(result["traitDeltas"] == .array([
            .object(["key": "diet", "onlyA": [], "onlyB": [], "shared": ["carnivore"]]),
            .object(["key": "habitat", "onlyA": ["savanna"], "onlyB": [], "shared": []]),
        ]))
        // The specification's switch: no similarity, the same deltas.
        let without = try #require(await engine.call(CompareTaxaRequest(a: try id("Panthera leo"), b: try id("Panthera tigris"), includeTraitSimilarity: false))?["result"])
        #expect(without["traitSimilarity"] == .null && without["traitDeltas"] == result["traitDeltas"])
    }

    @Test func sameFamilyOrderAndDomain() async throws {
        let engine = try engine()
        let cat = try #require(try await compare(engine, "Panthera leo", "Felis catus")?["result"])
        #expect(cat["lca"]?["scientificName"] == "Felidae")
        #expect(cat["taxonomicDistance"] == 4)
        #expect(cat["sharedCladeDescription"] == "Both are in family Felidae (Cats)")
        #expect(cat["sharedClade"] == .object([
            "id": .integer(try id("Felidae")), "preferredCommonName": "Cats", "preferredCommonNameLang": "en", "rank": "family",
            "relation": "bothWithin", "scientificName": "Felidae",
        ]), "the sentence's parts as fields, in key order")
        #expect(cat["traitSimilarity"] == .null, "the cat has no traits: null, not absent")

        let wolf = try #require(try await compare(engine, "Panthera leo", "Canis lupus")?["result"])
        #expect(wolf["lca"]?["scientificName"] == "Carnivora")
        #expect(wolf["taxonomicDistance"] == 6)
        #expect(wolf["sharedCladeDescription"]?.stringValue?.hasPrefix("Both are in order Carnivora") == true)
        #expect(wolf["sharedCladeDescription"] == "Both are in order Carnivora (Carnivorans)")
        #expect(Self.names(wolf["pathFromB"]) == ["Canis lupus", "Canis", "Canidae", "Carnivora"])

        let rose = try #require(try await compare(engine, "Panthera leo", "Rosa canina")?["result"])
        #expect(rose["lca"]?["scientificName"] == "Eukaryota")
        #expect(rose["lca"]?["rank"] == "domain")
        #expect(rose["taxonomicDistance"] == 14)
        #expect(Self.names(rose["pathFromA"]).count == 8 && Self.names(rose["pathFromB"]).count == 8)
        #expect(rose["sharedCladeDescription"] == "Both are in domain Eukaryota (Eukaryotes)")
        #expect(rose["sharedClade"]?["rank"] == "domain" && rose["sharedClade"]?["id"] == rose["lca"]?["id"])
    }

    /// Taxa in different trees (a lion under Eukaryota, E. coli under Bacteria) meet at the root of
    /// all life, a pseudo-taxon with id 0; `compare/lca` still answers null for them.
    @Test func differentDomainsMeetAtTheRootOfLife() async throws {
        let engine = try engine()
        let result = try #require(try await compare(engine, "Panthera leo", "Escherichia coli")?["result"])
        let life: JSONValue = .object([
            ("childCount", 2), ("id", 0), ("preferredCommonName", "Life"), ("preferredCommonNameLang", "en"), ("scientificName", "Biota"), ("status", "accepted"),
        ])
        #expect(result["lca"] == life)
        #expect(Self.names(result["pathFromA"]) == ["Panthera leo", "Panthera", "Felidae", "Carnivora", "Mammalia", "Chordata", "Animalia", "Eukaryota", "Biota"])
        #expect(Self.names(result["pathFromB"]).suffix(2) == ["Bacteria", "Biota"])
        #expect(result["pathFromA"]?.arrayValue?.last == life && result["pathFromB"]?.arrayValue?.last == life)
        let edges = (result["pathFromA"]?.arrayValue?.count ?? 0) + (result["pathFromB"]?.arrayValue?.count ?? 0) - 2
        #expect(result["taxonomicDistance"]?.int64Value == Int64(edges) && edges > 14)
        #expect(result["sharedClade"] == .object([
            ("id", 0), ("preferredCommonName", "Life"), ("preferredCommonNameLang", "en"), ("relation", "bothWithin"), ("scientificName", "Biota"),
        ]))
        #expect(result["sharedCladeDescription"] == "Both are in Biota (Life), the root of the tree of life: their lines part there, into Eukaryota and Bacteria")
        #expect(result["a"]?["scientificName"] == "Panthera leo" && result["b"]?["scientificName"] == "Escherichia coli")

        // In the child's language, as every other taxon of the answer.
        let german = try #require(try await compare(engine, "Escherichia coli", "Panthera leo", lang: "de_DE")?["result"])
        #expect(german["lca"]?["preferredCommonName"] == "Leben" && german["lca"]?["preferredCommonNameLang"] == "de")
        #expect(german["sharedCladeDescription"] == "Both are in Biota (Leben), the root of the tree of life: their lines part there, into Bacteria and Eukaryota")
        let japanese = try #require(try await compare(engine, "Escherichia coli", "Panthera leo", lang: "ja")?["result"])
        #expect(japanese["lca"]?["preferredCommonName"] == "Life" && japanese["lca"]?["preferredCommonNameLang"] == "en")

        // The bulk form for scripts: no taxon is their ancestor, so null, as documented.
        let bulk = await engine.result(CompareLCARequest(pairs: [[try id("Panthera leo"), try id("Escherichia coli")]]))
        #expect(bulk?["lcas"] == [.null] && bulk?["distances"] == [.null])
    }

    @Test func aTaxonWithItselfAndWithItsAncestor() async throws {
        let engine = try engine()
        let same = try #require(try await compare(engine, "Panthera leo", "Panthera leo")?["result"])
        #expect(same["taxonomicDistance"] == 0)
        #expect(same["lca"]?["scientificName"] == "Panthera leo")
        #expect(Self.names(same["pathFromA"]) == ["Panthera leo"] && Self.names(same["pathFromB"]) == ["Panthera leo"])
        #expect(same["sharedCladeDescription"] == "These are the same taxon")
        #expect(same["sharedClade"]?["relation"] == "sameTaxon" && same["sharedClade"]?["scientificName"] == "Panthera leo")
        #expect(same["traitSimilarity"]?.doubleValue == 1)

        let up = try #require(try await compare(engine, "Felidae", "Panthera leo")?["result"])
        #expect(up["lca"]?["scientificName"] == "Felidae")
        #expect(up["taxonomicDistance"] == 2)
        #expect(Self.names(up["pathFromA"]) == ["Felidae"])
        #expect(Self.names(up["pathFromB"]) == ["Panthera leo", "Panthera", "Felidae"])
        #expect(up["sharedCladeDescription"] == "Panthera leo is in family Felidae (Cats)")
        #expect(up["sharedClade"]?["relation"] == "bWithinA", "a is the clade")
        #expect(up["traitSimilarity"] == .null)

        let down = try #require(try await compare(engine, "Panthera leo", "Animalia")?["result"])
        #expect(down["lca"]?["scientificName"] == "Animalia")
        #expect(down["taxonomicDistance"] == 6)
        #expect(down["sharedClade"]?["relation"] == "aWithinB", "b is the clade")
    }

    @Test func languageOfCommonNames() async throws {
        let engine = try engine()
        let result = try #require(try await compare(engine, "Panthera leo", "Panthera tigris", lang: "de")?["result"])
        #expect(result["a"]?["preferredCommonName"] == "Löwe")
        #expect(result["b"]?["preferredCommonName"] == "Tiger", "falls back to English")
        #expect(result["a"]?["preferredCommonNameLang"] == "de" && result["b"]?["preferredCommonNameLang"] == "en", "and says so")
        #expect(result["sharedClade"]?["preferredCommonName"] == "Big cats" && result["sharedClade"]?["preferredCommonNameLang"] == "en")
    }

    @Test func unknownIdsAndBadParams() async throws {
        let engine = try engine()
        let leo = try id("Panthera leo")
        for request in [CompareTaxaRequest(a: 424242, b: leo), CompareTaxaRequest(a: leo, b: 424242)] {
            let error = await engine.call(request)?["error"]
            #expect(error?["code"] == -32002)
            #expect(error?["data"]?["kind"] == "taxonNotFound")
            #expect(error?["data"]?["id"] == 424242)
        }
        let relatives = await engine.call(CompareRelativesRequest(id: 424242))?["error"]
        #expect(relatives?["data"]?["kind"] == "taxonNotFound" && relatives?["data"]?["id"] == 424242)
        let taxa = CompareTaxaRequest.self, nearest = CompareRelativesRequest.self
        let cases: [(any RPCRequest.Type, JSONValue, String)] = [
            (taxa, .object(["a": .integer(leo)]), "b"), (taxa, .object(["a": -1, "b": 1]), "a"),
            (taxa, .object(["a": 1, "b": 2, "lang": "??"]), "lang"),
            (nearest, .object([:]), "id"), (nearest, .object(["id": .integer(leo), "n": 0]), "n"),
            (nearest, .object(["id": .integer(leo), "n": 101]), "n"),
            (nearest, .object(["id": .integer(leo), "source": "guess"]), "source"),
            (nearest, .object(["id": .integer(leo), "maxCandidates": 0]), "maxCandidates"),
        ]
        for (contract, params, field) in cases {
            let error = await engine.call(contract, params: params)?["error"]
            #expect(error?["code"] == -32602, "\(contract.method) \(params)")
            #expect(error?["data"]?["field"] == JSONValue.string(field), "\(contract.method) \(params)")
        }
    }

    /// `compare/lca` answers every pair as `compare/taxa` does, in one request.
    @Test func bulkLCAAgreesWithCompareTaxa() async throws {
        let engine = try engine()
        let ids = try EmbeddedDatabaseTests.query("SELECT id FROM taxa ORDER BY id", try Self.database.get()).compactMap { Int64($0) }
        #expect(ids.count == 57)
        var pairs: [[TaxonID]] = []
        var expected: [(lca: JSONValue?, distance: JSONValue?)] = []
        for (i, a) in ids.enumerated() {
            for b in [ids[(i * 7 + 3) % ids.count], a, ids[(i * 13 + 5) % ids.count]] {
                pairs.append([a, b])
                let one = await engine.call(CompareTaxaRequest(a: a, b: b))
                let result = try #require(one?["result"])
                // Across trees `compare/taxa` meets at the root of life (id 0); `compare/lca` answers null.
                let acrossLife = result["lca"]?["id"] == 0
                expected.append(acrossLife ? (.null, .null) : (result["lca"]?["id"], result["taxonomicDistance"]))
            }
        }
        _ = await engine.result(CompareStatsRequest())
        let bulk = try #require(await engine.result(CompareLCARequest(pairs: pairs)))
        #expect(bulk["source"] == "tree")
        #expect(bulk["lcas"]?.arrayValue?.count == pairs.count)
        #expect(bulk["lcas"]?.arrayValue == expected.map { $0.lca ?? .null })
        #expect(bulk["distances"]?.arrayValue == expected.map { $0.distance ?? .null })
        #expect(expected.contains { $0.lca == .null })

        #expect(await engine.result(CompareLCARequest(pairs: []))?["lcas"] == .array([]))
        let lion = try id("Panthera leo")
        func error(_ pairs: JSONValue) async -> JSONValue? { await engine.call(CompareLCARequest.self, params: .object(["pairs": pairs]))?["error"] }
        let unknown = await error(.array([.array([.integer(lion), .integer(lion)]), .array([.integer(lion), .integer(99)])]))
        #expect(unknown?["code"] == -32002)
        #expect(unknown?["data"]?["id"] == 99)
        #expect(await error(.array([.array([.integer(lion)])]))?["data"]?["field"] == "pairs.0")
        #expect(await error(.array([.array([.integer(lion), .integer(lion)]), .array([.integer(lion), .integer(-4)])]))?["data"]?["field"] == "pairs.1.1")
        #expect(await error(.array([.array([.integer(lion), .string("x")])]))?["code"] == -32602)
        #expect(await error(.integer(3))?["data"]?["field"] == "pairs")
        let tooMany = JSONValue.array(Array(repeating: .array([.integer(lion), .integer(lion)]), count: 100_001))
        #expect(await error(tooMany)?["data"]?["field"] == "pairs")
        #expect(await engine.result(PingRequest()) != nil)
    }

    /// `taxon/lineages` gives, for every taxon at once, the ids `taxon/ancestors` lists, from the
    /// in-memory tree and (with a tree too large to hold) from SQL.
    @Test func bulkLineagesAgreeWithAncestors() async throws {
        let ids = try EmbeddedDatabaseTests.query("SELECT id FROM taxa ORDER BY id", try Self.database.get()).compactMap { Int64($0) }
        var expected: [JSONValue] = []
        let engine = try engine()
        for id in ids {
            let ancestors = await engine.result(TaxonAncestorsRequest(id: id))?["ancestors"]?.arrayValue ?? []
            expected.append(.array(ancestors.compactMap { $0["id"] }))
        }
        #expect(expected.contains { $0.arrayValue?.isEmpty == true } && expected.contains { ($0.arrayValue?.count ?? 0) > 5 })
        let asked = TaxonLineagesRequest(ids: ids + [ids[3]])
        let bulk = try #require(await engine.result(asked))
        #expect(bulk["source"] == "tree")
        #expect(bulk["lineages"]?.arrayValue == expected + [expected[3]])
        // Without the in-memory tree (a limit of 10 nodes), the same answer from SQL.
        let sql = try EngineProcess(["--database", try Self.database.get().path, "--lca-max-nodes", "10"])
        let fromSQL = try #require(await sql.result(asked))
        #expect(fromSQL["source"] == "sql")
        #expect(fromSQL["lineages"] == bulk["lineages"])

        func error(_ ids: JSONValue) async -> JSONValue? { await engine.call(TaxonLineagesRequest.self, params: .object(["ids": ids]))?["error"] }
        let unknown = await error(.array([.integer(ids[0]), .integer(99)]))
        #expect(unknown?["code"] == -32002 && unknown?["data"]?["id"] == 99)
        #expect(await error(.array([.integer(ids[0]), .integer(-4)]))?["data"]?["field"] == "ids.1")
        #expect(await error(.array(Array(repeating: .integer(ids[0]), count: 100_001)))?["data"]?["field"] == "ids")
        #expect(await engine.result(TaxonLineagesRequest(ids: []))?["lineages"] == .array([]))
    }

    /// Waits until the engine's in-memory tree has been built (or given up).
    static func waitForTree(_ engine: EngineProcess) async throws -> JSONValue? {
        var stats = await engine.result(CompareStatsRequest())
        for _ in 0..<500 where stats?["state"] == "building" {
            try await Task.sleep(for: .milliseconds(10))
            stats = await engine.result(CompareStatsRequest())
        }
        return stats?["state"]
    }

    /// On the embedded database, `taxon/ancestors` and `compare/taxa` answer the same bytes from
    /// the in-memory tree as from SQL (an engine whose tree limit is 10 nodes).
    @Test func ancestorsAndComparisonsFromTheTreeEqualThoseFromSQL() async throws {
        let tree = try EngineProcess(), sql = try EngineProcess(["--lca-max-nodes", "10"])
        #expect(try await Self.waitForTree(tree) == "ready")
        #expect(try await Self.waitForTree(sql) == "disabled")
        let ids = try EmbeddedDatabaseTests.query("SELECT id FROM taxa ORDER BY id").compactMap { Int64($0) }
        #expect(ids.count > 1000)
        /// The answer without its id (the two engines have seen different numbers of requests).
        func answer(_ engine: EngineProcess, _ request: some RPCRequest) async -> JSONValue? {
            let message = await engine.call(request)
            return message?["result"] ?? message?["error"]
        }
        for (i, id) in ids.enumerated() {
            let request = TaxonAncestorsRequest(id: id, lang: i % 3 == 0 ? ["es", "pt-BR", "de"][i % 9 / 3] : nil)
            let fromTree = await answer(tree, request)
            let fromSQL = await answer(sql, request)
            #expect(fromTree?["ancestors"] != nil && fromTree == fromSQL, "\(id)")
        }
        let unknown = TaxonAncestorsRequest(id: 99_999_999)
        #expect(await answer(tree, unknown)?["code"] == -32002)
        #expect(await answer(tree, unknown) == (await answer(sql, unknown)))
        var rng = SplitMix64(seed: 19)
        for k in 0..<400 {
            let a = ids[Int(rng.next() % UInt64(ids.count))], b = k % 10 == 0 ? a : ids[Int(rng.next() % UInt64(ids.count))]
            let request = CompareTaxaRequest(a: a, b: b, lang: k % 2 == 0 ? "en" : "es")
            let fromTree = await answer(tree, request)
            #expect(fromTree?["pathFromA"] != nil)
            #expect(fromTree == (await answer(sql, request)), "\(a) vs \(b)")
        }
    }

    @Test func relativesOfTheLion() async throws {
        let engine = try engine()
        let leo = try id("Panthera leo")
        let result = try #require(await engine.result(CompareRelativesRequest(id: leo, n: 5)))
        #expect(result["source"] == "precomputed")
        #expect(result["truncated"] == false)
        let relatives = result["relatives"]?.arrayValue ?? []
        #expect(relatives.map { $0["taxon"]?["scientificName"]?.stringValue } == ["Panthera tigris", "Felis catus", "Canis lupus", "Testus species01", "Testus species02"])
        #expect(relatives.map { $0["distance"] } == [2, 4, 6, 8, 8])
        #expect(relatives.map { $0["rankOrder"] } == [1, 2, 3, 4, 5])
        #expect(relatives.map { $0["lca"]?["scientificName"]?.stringValue } == ["Panthera", "Felidae", "Carnivora", "Mammalia", "Mammalia"])
        #expect(relatives.map { $0["lcaDepth"] } == [6, 5, 4, 3, 3])
        #expect(relatives.first?["taxon"]?["preferredCommonName"] == "Tiger")
    }

    @Test func precomputedEqualsComputedForEverySpecies() async throws {
        let engine = try engine()
        let species = try EmbeddedDatabaseTests.query("SELECT id FROM taxa WHERE rank = 'species' ORDER BY id", try Self.database.get()).compactMap { Int64($0) }
        #expect(species.count == 31)
        for id in species {
            for n in [1, 3, 10] {
                let stored = await engine.result(CompareRelativesRequest(id: id, n: n))
                let computed = await engine.result(CompareRelativesRequest(id: id, n: n, source: .computed))
                #expect(stored?["relatives"] == computed?["relatives"], "species \(id) n \(n)")
                #expect(computed?["source"] == "computed")
                // E. coli is alone in its tree: no stored rows, so it is computed (and empty).
                #expect(stored?["source"] == (stored?["relatives"]?.arrayValue?.isEmpty == true ? "computed" : "precomputed"))
            }
        }
    }

    @Test func moreThanStoredOrNoTableFallsBackToComputed() async throws {
        let engine = try engine()
        let first = try id("Testus species01")
        let result = try #require(await engine.result(CompareRelativesRequest(id: first, n: 15)))
        #expect(result["source"] == "computed", "only 10 are stored")
        let names = result["relatives"]?.arrayValue?.compactMap { $0["taxon"]?["scientificName"]?.stringValue } ?? []
        #expect(names == (2...16).map { "Testus species" + String(format: "%02d", $0) })

        let bare = try self.engine(try Self.withoutRelatives.get())
        let leo = try id("Panthera leo", in: try Self.withoutRelatives.get())
        let fallback = try #require(await bare.result(CompareRelativesRequest(id: leo, n: 3)))
        #expect(fallback["source"] == "computed")
        #expect(fallback["relatives"]?.arrayValue?.compactMap { $0["taxon"]?["scientificName"]?.stringValue } == ["Panthera tigris", "Felis catus", "Canis lupus"])
    }

    @Test func notASpeciesAndTruncation() async throws {
        let engine = try engine()
        let genus = await engine.call(CompareRelativesRequest(id: try id("Panthera")))?["error"]
        #expect(genus?["code"] == .number("-32003"))
        #expect(genus?["data"]?["kind"] == "notASpecies")

        let first = try id("Testus species01")
        let cut = try #require(await engine.result(CompareRelativesRequest(id: first, n: 10, source: .computed, maxCandidates: 3)))
        #expect(cut["truncated"] == true)
        #expect(cut["source"] == "computed")
        #expect(cut["relatives"]?.arrayValue?.count == 3)
        let whole = try #require(await engine.result(CompareRelativesRequest(id: first, n: 10, source: .computed, maxCandidates: 100)))
        #expect(whole["truncated"] == false)
        #expect(whole["relatives"]?.arrayValue?.count == 10)
        let big = await engine.result(CompareRelativesRequest(id: first, n: 10, source: .computed, maxCandidates: 1_000_000))
        #expect(big == whole)
    }

    @Test func statsReportTheInMemoryTree() async throws {
        let engine = try engine()
        var stats = await engine.result(CompareStatsRequest())
        for _ in 0..<500 where stats?["state"] == "building" {
            try await Task.sleep(for: .milliseconds(10))
            stats = await engine.result(CompareStatsRequest())
        }
        #expect(stats?["state"] == "ready")
        #expect(stats?["nodes"] == 57)
        #expect(stats?["source"] == "euler_tour")
        #expect((stats?["bytes"]?.int64Value ?? 0) > 57 * 20)
        #expect((stats?["buildSeconds"]?.doubleValue ?? -1) >= 0)
    }

    @Test func theEmbeddedLionsClosestRelativesAreTheOtherBigCats() async throws {
        let engine = try EngineProcess()
        let shipped = EmbeddedDatabaseTests.shipped
        let leo = try id("Panthera leo", in: shipped)
        let others = Set(try EmbeddedDatabaseTests.query(
            "SELECT scientific_name FROM taxa WHERE parent_id = (SELECT parent_id FROM taxa WHERE id = \(leo)) AND id != \(leo)", shipped))
        #expect(others.count >= 3 && others.allSatisfy { $0.hasPrefix("Panthera ") })
        for source in RelativesSource.allCases {
            let result = await engine.result(CompareRelativesRequest(id: leo, n: others.count, source: source))
            #expect(result?["source"]?.stringValue == source.rawValue)
            let names = result?["relatives"]?.arrayValue?.compactMap { $0["taxon"]?["scientificName"]?.stringValue } ?? []
            #expect(Set(names) == others, "\(source)")
            #expect(names == names.sorted())
            #expect(result?["relatives"]?.arrayValue?.allSatisfy { $0["distance"] == 2 && $0["lca"]?["scientificName"] == "Panthera" } == true)
        }
        let wolf = try id("Canis lupus", in: shipped)
        let comparison = await engine.result(CompareTaxaRequest(a: leo, b: wolf))
        #expect(comparison?["lca"]?["scientificName"] == "Carnivora")
        #expect(comparison?["sharedCladeDescription"]?.stringValue?.hasPrefix("Both are in order Carnivora") == true)
    }
}
