import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLTestSupport
import Testing

@testable import STOLEngine

/// `taxon/ancestors` and `taxon/lineages` from the in-memory tree answer what the SQL walk answers,
/// homonyms included; `compare/taxa` and the bulk lineages write the JSON `JSONEncoder` would.
@Suite(.serialized) struct LineagesFromTreeTests {
    /// Random taxonomies whose names repeat, so that many taxa have namesakes.
    static let fixtures: [CompareTrees.Shape: Result<CompareFixture, any Error>] = Dictionary(
        uniqueKeysWithValues: [CompareTrees.Shape.random, .deepChain, .forest].enumerated().map { i, shape in
            (shape, Result { try CompareFixture.make(shape, count: 600, seed: 777 + UInt64(i)) })
        })

    static func ancestorsAgree(in database: TaxonomyDatabase, ids: [Int64], langs: [String]) async throws -> Int {
        let store = TaxonomyStore(database: database)
        let tree = try await LCASnapshotLoader.load(database)
        var disambiguated = 0
        for id in ids {
            for lang in langs {
                let fromTree = try await store.ancestors(id, lang: lang, tree: tree)
                let fromSQL = try await store.ancestors(id, lang: lang)
                #expect(fromTree == fromSQL, "\(id) \(lang)")
                #expect(TaxonJSONTests.fast(["ancestors": fromTree]) == TaxonJSONTests.fast(["ancestors": fromSQL]))
                disambiguated += fromTree.filter { $0.disambiguation != nil }.count
            }
        }
        for missing: Int64 in [999_999_999, 1 << 52] {
            await #expect(throws: TaxonomyError.taxonNotFound(missing)) { try await store.ancestors(missing, tree: tree) }
            await #expect(throws: TaxonomyError.taxonNotFound(missing)) { try await store.ancestors(missing) }
        }
        return disambiguated
    }

    @Test func ancestorsFromTheTreeEqualSQLOnTheEmbeddedDatabase() async throws {
        let database = try TaxonomyDatabase(url: try Engine.embeddedDatabaseURL(), source: .bundled)
        let ids = try await database.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM taxa ORDER BY id") }
        #expect(ids.count > 1000)
        _ = try await Self.ancestorsAgree(in: database, ids: ids, langs: ["en", "es", "pt-BR", "xx"])
    }

    @Test(arguments: [CompareTrees.Shape.random, .deepChain, .forest])
    func ancestorsFromTheTreeEqualSQLWithHomonyms(_ shape: CompareTrees.Shape) async throws {
        let fixture = try Self.fixtures[shape]!.get()
        // The deep chain's SQL walks are long: every fourth taxon there.
        let ids = shape == .deepChain ? fixture.assembled.ids.enumerated().filter { $0.offset % 4 == 0 }.map(\.element) : fixture.assembled.ids
        let disambiguated = try await Self.ancestorsAgree(in: fixture.database, ids: ids, langs: ["en"])
        #expect(disambiguated > 100, "the fixture's names repeat: lineages carry homonyms")
    }

    /// The one query that finds shared names, and lineages read from the tree, change nothing:
    /// each taxon gets what the per-taxon lookup over SQL gives it.
    @Test(arguments: [CompareTrees.Shape.random, .forest])
    func sharedNamesFoundAtOnceEqualOneByOne(_ shape: CompareTrees.Shape) async throws {
        let fixture = try Self.fixtures[shape]!.get()
        let select = TaxonomyStore.selectTaxon(in: fixture.database)
        let tree = try await LCASnapshotLoader.load(fixture.database)
        try await fixture.database.read { db in
            var taxa = try TaxonomyStore.taxa(db, fixture.assembled.ids, lang: "en", select: select)
            var withTree = taxa
            try Homonyms.disambiguate(&taxa, in: db)
            try Homonyms.disambiguate(&withTree, in: db, tree: tree)
            var shared = 0
            for (taxon, fromTree) in zip(taxa, withTree) {
                let alone = try Homonyms.disambiguation(id: taxon.id, scientificName: taxon.scientificName, rank: taxon.rank, in: db)
                #expect(taxon.disambiguation == alone, "\(taxon.id)")
                #expect(fromTree.disambiguation == alone, "\(taxon.id) from the tree")
                if alone != nil { shared += 1 }
            }
            #expect(shared > 100 && shared < taxa.count)
            #expect(try Homonyms.sharedNames([], in: db).isEmpty)
            #expect(try Homonyms.sharedNames(["no such name", "\"\\\u{2028}🦁"], in: db).isEmpty)
        }
    }

    @Test(arguments: [CompareTrees.Shape.random, .forest])
    func comparisonsAndLineagesWriteWhatTheEncoderWrites(_ shape: CompareTrees.Shape) async throws {
        let fixture = try Self.fixtures[shape]!.get()
        let provider = DatabaseProvider(bundled: fixture.database)
        let service = CompareService(databases: provider, lca: LCAService(provider: provider, maxNodes: .max))
        let tree = try await LCASnapshotLoader.load(fixture.database)
        let ids = fixture.assembled.ids
        var rng = SplitMix64(seed: 5)
        var similarities = Set<Double?>()
        for _ in 0..<200 {
            let a = ids.randomElement(using: &rng)!, b = ids.randomElement(using: &rng)!
            for include in [true, false] {
                guard let comparison = try? await service.compare(a, b, lang: "en", includeTraitSimilarity: include, in: fixture.database, using: tree) else { continue }
                #expect(TaxonJSONTests.fast(comparison) == (try TaxonJSONTests.viaEncoder(comparison)), "\(a) vs \(b)")
                similarities.insert(comparison.traitSimilarity)
            }
        }
        #expect(similarities.count > 4 && similarities.contains(nil))
        for fraction in (1...60).flatMap({ j in (0...j).map { Double($0) / Double(j) } }) + [1e-7, 123.25] {
            #expect(TaxonJSONTests.fast([fraction]) == (try TaxonJSONTests.viaEncoder([fraction])), "\(fraction)")
        }

        let asked = Array(ids.shuffled(using: &rng).prefix(300)) + [ids[0], ids[0]]
        let fromTree = LineageBatch(lineages: TreeLineages(snapshot: tree, nodes: asked.map { tree.node(for: $0)! }), source: "tree")
        let fromIDs = LineageBatch(lineages: asked.map { id in tree.tree.ancestors(of: tree.node(for: id)!).reversed().map(tree.id(of:)) }, source: "sql")
        #expect(fromTree.lineages == fromIDs.lineages)
        #expect(TaxonJSONTests.fast(fromTree) == (try TaxonJSONTests.viaEncoder(fromTree)))
        #expect(String(decoding: TaxonJSONTests.fast(fromTree), as: UTF8.self)
            == String(decoding: TaxonJSONTests.fast(fromIDs), as: UTF8.self).replacingOccurrences(of: "\"sql\"", with: "\"tree\""))
        let empty = LineageBatch(lineages: TreeLineages(snapshot: tree, nodes: []), source: "tree")
        #expect(TaxonJSONTests.fast(empty) == (try TaxonJSONTests.viaEncoder(empty)))
        for value: Int64 in [1, 9, 10, 99, 100, 1_234_567, 9_007_199_254_740_991, Int64.max, 0, -5] {
            var out: [UInt8] = []
            TreeLineages.writeDecimal(value, into: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(value))
        }
    }
}
