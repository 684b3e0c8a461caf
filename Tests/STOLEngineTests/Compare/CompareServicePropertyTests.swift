import Foundation
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine

/// The compare service on random taxonomies built by the real pipeline: in-memory and SQL answers
/// agree, stored relatives equal computed ones, and both equal a brute-force search.
@Suite(.serialized) struct CompareServicePropertyTests {
    static let shapes = CompareTrees.Shape.allCases
    static let fixtures: [CompareTrees.Shape: Result<CompareFixture, any Error>] = Dictionary(
        uniqueKeysWithValues: shapes.enumerated().map { i, shape in
            (shape, Result { try CompareFixture.make(shape, count: shape == .star ? 400 : 900, seed: 4242 + UInt64(i)) })
        })

    func fixture(_ shape: CompareTrees.Shape) throws -> CompareFixture { try Self.fixtures[shape]!.get() }

    func service(_ fixture: CompareFixture) -> CompareService {
        let provider = DatabaseProvider(bundled: fixture.database)
        return CompareService(databases: provider, lca: LCAService(provider: provider, maxNodes: .max))
    }

    @Test(arguments: shapes)
    func tourDerivedTreeEqualsParentDerivedTree(_ shape: CompareTrees.Shape) async throws {
        let fixture = try fixture(shape)
        let fromTour = try await LCASnapshotLoader.load(fixture.database)
        let fromTaxa = try await LCASnapshotLoader.load(fixture.database, preferTour: false)
        #expect(fromTour.source == .eulerTour)
        #expect(fromTaxa.source == .taxa)
        #expect(fromTour.count == fixture.assembled.taxa.count)
        #expect(fromTour.ids == fromTaxa.ids)
        #expect(fromTour.tree.parent == fromTaxa.tree.parent)
        #expect(fromTour.tree.depth == fromTaxa.tree.depth)
        #expect(fromTour.tree.childStart == fromTaxa.tree.childStart)
        #expect(fromTour.tree.children == fromTaxa.tree.children)
        #expect(fromTour.tree.roots == fromTaxa.tree.roots)
        #expect(fromTour.bytes == fromTaxa.bytes)
        for node in 0..<Int32(fromTour.count) {
            #expect(fromTour.isSpecies(node) == fromTaxa.isSpecies(node))
            #expect(fromTour.node(for: fromTour.id(of: node)) == node)
        }
        // Both match the assembled forest.
        for i in fixture.assembled.taxa.indices {
            let node = try #require(fromTour.node(for: fixture.assembled.ids[i]))
            let p = fixture.assembled.parentIndex[i]
            #expect(fromTour.tree.parent[Int(node)] == (p >= 0 ? fromTour.node(for: fixture.assembled.ids[Int(p)]) : -1))
            #expect(fromTour.isSpecies(node) == (fixture.assembled.taxa[i].rank == .species))
        }
        #expect(fromTour.node(for: 0) == nil && fromTour.node(for: .max) == nil)
    }

    @Test(arguments: shapes)
    func precomputedRelativesEqualComputedAndBruteForce(_ shape: CompareTrees.Shape) async throws {
        let fixture = try fixture(shape)
        let service = service(fixture)
        let snapshot = try await LCASnapshotLoader.load(fixture.database)
        let n = fixture.topN
        var checked = 0
        for (k, index) in fixture.assembled.taxa.indices.enumerated() where fixture.assembled.taxa[index].rank == .species {
            let id = fixture.assembled.ids[index]
            let stored = try await service.relatives(of: id, n: n, source: .precomputed, maxCandidates: .max, lang: "en", in: fixture.database, using: snapshot)
            let computed = try await service.relatives(of: id, n: n, source: .computed, maxCandidates: .max, lang: "en", in: fixture.database, using: snapshot)
            let naive = fixture.naiveRelatives(of: index, n: n)
            #expect(computed.source == .computed && !computed.truncated)
            #expect(stored.relatives == computed.relatives, "\(shape) species \(id)")
            #expect(computed.relatives.map { $0.taxon.id } == naive.map(\.id), "\(shape) species \(id)")
            #expect(computed.relatives.map(\.distance) == naive.map(\.distance))
            #expect(computed.relatives.map(\.rankOrder) == Array(1..<(computed.relatives.count + 1)))
            if stored.relatives.isEmpty { #expect(stored.source == .computed) } else { #expect(stored.source == .precomputed) }
            // The SQL walk, on a sample (it is slower).
            if k % 7 == 0 {
                let sql = try await service.relatives(of: id, n: n, source: .computed, maxCandidates: .max, lang: "en", in: fixture.database, using: nil)
                #expect(sql == computed, "\(shape) species \(id) from SQL")
            }
            checked += 1
        }
        #expect(checked > 10)
    }

    @Test(arguments: shapes)
    func moreThanStoredFallsBackToComputed(_ shape: CompareTrees.Shape) async throws {
        let fixture = try fixture(shape)
        let service = service(fixture)
        let snapshot = try await LCASnapshotLoader.load(fixture.database)
        for (k, index) in fixture.assembled.taxa.indices.enumerated() where fixture.assembled.taxa[index].rank == .species && k % 11 == 0 {
            let id = fixture.assembled.ids[index]
            let result = try await service.relatives(of: id, n: fixture.topN + 4, source: .precomputed, maxCandidates: .max, lang: "en", in: fixture.database, using: snapshot)
            #expect(result.source == .computed)
            #expect(result.relatives.map { $0.taxon.id } == fixture.naiveRelatives(of: index, n: fixture.topN + 4).map(\.id))
        }
    }

    @Test(arguments: shapes)
    func sqlWalkEqualsInMemoryWalkEvenWhenTruncated(_ shape: CompareTrees.Shape) async throws {
        let fixture = try fixture(shape)
        let service = service(fixture)
        let snapshot = try await LCASnapshotLoader.load(fixture.database)
        var truncations = 0
        for (k, index) in fixture.assembled.taxa.indices.enumerated() where fixture.assembled.taxa[index].rank == .species && k % 13 == 0 {
            let id = fixture.assembled.ids[index]
            for (n, budget) in [(1, 1), (3, 2), (10, 5), (20, 40), (100, 300)] {
                let memory = try await service.relatives(of: id, n: n, source: .computed, maxCandidates: budget, lang: "en", in: fixture.database, using: snapshot)
                let sql = try await service.relatives(of: id, n: n, source: .computed, maxCandidates: budget, lang: "en", in: fixture.database, using: nil)
                #expect(memory == sql, "\(shape) species \(id) n=\(n) budget=\(budget)")
                #expect(memory.relatives.count <= n)
                if memory.truncated { truncations += 1 }
            }
        }
        #expect(truncations > 0)
    }

    @Test(arguments: shapes)
    func compareTaxaFromMemoryEqualsFromSQLAndNaive(_ shape: CompareTrees.Shape) async throws {
        let fixture = try fixture(shape)
        let service = service(fixture)
        let snapshot = try await LCASnapshotLoader.load(fixture.database)
        let parent = fixture.assembled.parentIndex
        let n = Int32(parent.count)
        var rng = SplitMix64(seed: 77)
        var acrossLife = 0
        for k in 0..<150 {
            let u = Int32.random(in: 0..<n, using: &rng)
            var v = Int32.random(in: 0..<n, using: &rng)
            if k % 5 == 0 { v = u }
            if k % 5 == 1, parent[Int(u)] >= 0 {
                v = u
                for _ in 0..<Int.random(in: 1...4, using: &rng) where parent[Int(v)] >= 0 { v = parent[Int(v)] }
            }
            let a = fixture.assembled.ids[Int(u)], b = fixture.assembled.ids[Int(v)]
            let memory: Result<TaxaComparison, any Error>, sql: Result<TaxaComparison, any Error>
            do { memory = .success(try await service.compare(a, b, lang: "en", in: fixture.database, using: snapshot)) } catch { memory = .failure(error) }
            do { sql = .success(try await service.compare(a, b, lang: "en", in: fixture.database, using: nil)) } catch { sql = .failure(error) }
            guard let l = CompareTrees.naiveLCA(parent, u, v) else {
                // Different trees: both paths run to their roots, then to the root of all life.
                let m = try memory.get()
                #expect(m == (try sql.get()), "\(shape) \(a) vs \(b)")
                #expect(m.lca.id == TreeOfLife.id && m.lca.parentId == nil && m.sharedClade.relation == .bothWithin)
                #expect(m.lca.childCount == parent.filter { $0 < 0 }.count)
                let d = CompareTrees.depth(parent, u) + CompareTrees.depth(parent, v) + 2
                #expect(m.taxonomicDistance == d && m.pathFromA.count + m.pathFromB.count - 2 == d)
                #expect(m.pathFromA.first?.id == a && m.pathFromB.first?.id == b)
                #expect(m.pathFromA.last == m.lca && m.pathFromB.last == m.lca)
                #expect(m.pathFromA.dropLast().last?.parentId == nil && m.pathFromB.dropLast().last?.parentId == nil)
                acrossLife += 1
                continue
            }
            let m = try memory.get()
            #expect(m == (try sql.get()), "\(shape) \(a) vs \(b)")
            #expect(m.lca.id == fixture.assembled.ids[Int(l)])
            let d = CompareTrees.depth(parent, u) + CompareTrees.depth(parent, v) - 2 * CompareTrees.depth(parent, l)
            #expect(m.taxonomicDistance == d)
            #expect(m.pathFromA.count + m.pathFromB.count - 2 == d)
            #expect(m.pathFromA.first?.id == a)
            #expect(m.pathFromB.first?.id == b)
            #expect(m.pathFromA.last == m.lca)
            #expect(m.pathFromB.last == m.lca)
            let traitsA = Set(fixture.assembled.taxa[Int(u)].traits.map { "\($0.key)=\($0.value)" })
            let traitsB = Set(fixture.assembled.taxa[Int(v)].traits.map { "\($0.key)=\($0.value)" })
            var jaccard: Double?
            if !traitsA.isEmpty, !traitsB.isEmpty {
                jaccard = Double(traitsA.intersection(traitsB).count) / Double(traitsA.union(traitsB).count)
            }
            #expect(m.traitSimilarity == jaccard)
            #expect(m.traitDeltas.flatMap(\.shared).count == traitsA.intersection(traitsB).count)
            if a == b { #expect(m.sharedCladeDescription == "These are the same taxon" && d == 0) }
        }
        if shape == .forest { #expect(acrossLife > 0, "the forest's random pairs include taxa of different trees") }
        for missing: Int64 in [1, 123_456_789] {
            await #expect(throws: TaxonomyError.taxonNotFound(missing)) {
                try await service.compare(missing, fixture.assembled.ids[0], lang: "en", in: fixture.database, using: snapshot)
            }
            await #expect(throws: TaxonomyError.taxonNotFound(missing)) {
                try await service.compare(fixture.assembled.ids[0], missing, lang: "en", in: fixture.database, using: nil)
            }
        }
    }

    @Test(arguments: shapes)
    func bulkLCAFromMemoryEqualsFromSQLAndNaive(_ shape: CompareTrees.Shape) async throws {
        let fixture = try fixture(shape)
        let service = service(fixture)
        let snapshot = try await LCASnapshotLoader.load(fixture.database)
        let parent = fixture.assembled.parentIndex
        let ids = fixture.assembled.ids
        let n = Int32(parent.count)
        var rng = SplitMix64(seed: 91)
        var nodes: [(Int32, Int32)] = []
        for k in 0..<1_200 {
            let u = Int32.random(in: 0..<n, using: &rng)
            var v = Int32.random(in: 0..<n, using: &rng)
            if k % 7 == 0 { v = u }
            if k % 7 == 1 { v = parent[Int(u)] >= 0 ? parent[Int(u)] : u }
            nodes.append((u, v))
        }
        let pairs = nodes.map { (ids[Int($0.0)], ids[Int($0.1)]) }
        let memory = try await service.lcas(pairs, in: fixture.database, using: snapshot)
        let sql = try await service.lcas(pairs, in: fixture.database, using: nil)
        #expect(memory.source == "tree")
        #expect(sql.source == "sql")
        #expect(memory.lcas == sql.lcas)
        #expect(memory.distances == sql.distances)
        #expect(memory.lcas.count == pairs.count)
        var none = 0
        for (i, (u, v)) in nodes.enumerated() {
            guard let l = CompareTrees.naiveLCA(parent, u, v) else {
                #expect(memory.lcas[i] == nil && memory.distances[i] == nil)
                none += 1
                continue
            }
            #expect(memory.lcas[i] == ids[Int(l)])
            #expect(memory.distances[i] == CompareTrees.depth(parent, u) + CompareTrees.depth(parent, v) - 2 * CompareTrees.depth(parent, l))
        }
        if shape == .forest { #expect(none > 0) }
        #expect(try await service.lcas([], in: fixture.database, using: snapshot).lcas.isEmpty)
        for missing: Int64 in [1, 123_456_789] {
            let known = ids[0]
            await #expect(throws: TaxonomyError.taxonNotFound(missing)) {
                try await service.lcas([(known, known), (known, missing)], in: fixture.database, using: snapshot)
            }
            await #expect(throws: TaxonomyError.taxonNotFound(missing)) {
                try await service.lcas([(missing, known)], in: fixture.database, using: nil)
            }
        }
    }

    @Test func descriptions() {
        func taxon(_ id: Int64, _ name: String, _ rank: Rank?, _ common: String? = nil) -> Taxon {
            Taxon(id: id, parentId: nil, rank: rank, scientificName: name, status: .accepted, preferredCommonName: common)
        }
        let leo = taxon(1, "Panthera leo", .species), wolf = taxon(2, "Canis lupus", .species)
        #expect(CompareService.describe(leo, wolf, taxon(3, "Carnivora", .order)) == "Both are in order Carnivora")
        #expect(CompareService.describe(leo, wolf, taxon(3, "Felidae", .family, "Cats")) == "Both are in family Felidae (Cats)")
        #expect(CompareService.describe(leo, wolf, taxon(3, "Feliformia", nil)) == "Both are in Feliformia")
        let felidae = taxon(3, "Felidae", .family, "Cats")
        #expect(CompareService.describe(felidae, leo, felidae) == "Panthera leo is in family Felidae (Cats)")
        #expect(CompareService.describe(leo, leo, leo) == "These are the same taxon")
    }
}

/// The service that owns the in-memory tree: background build, size limit, database switches.
@Suite(.serialized) struct CompareLCAServiceTests {
    @Test func buildsInTheBackgroundAndReportsStats() async throws {
        let fixture = try CompareFixture.make(.random, count: 300, seed: 1)
        defer { fixture.remove() }
        let provider = DatabaseProvider(bundled: fixture.database)
        let service = LCAService(provider: provider, maxNodes: 1000)
        let first = await service.stats(for: fixture.database)
        #expect(first.state == .building || first.state == .ready)
        await service.waitUntilBuilt(fixture.database)
        let stats = await service.stats(for: fixture.database)
        #expect(stats.state == .ready && stats.nodes == 300 && stats.bytes > 300 * 20 && stats.source == .eulerTour)
        #expect((stats.buildSeconds ?? -1) >= 0)
        let snapshot = try #require(await service.snapshot(for: fixture.database))
        #expect(await service.snapshot(for: fixture.database) === snapshot, "built once")
    }

    @Test func aboveTheLimitItIsDisabledAndAnswersComeFromSQL() async throws {
        let fixture = try CompareFixture.make(.recent, count: 300, seed: 2)
        defer { fixture.remove() }
        let provider = DatabaseProvider(bundled: fixture.database)
        let lca = LCAService(provider: provider, maxNodes: 299)
        await lca.waitUntilBuilt(fixture.database)
        let stats = await lca.stats(for: fixture.database)
        #expect(stats.state == .disabled && stats.bytes == 0 && stats.source == nil)
        #expect(await lca.snapshot(for: fixture.database) == nil)
        let service = CompareService(databases: provider, lca: lca)
        let species = fixture.speciesIDs
        let result = try await service.relatives(of: species[0], n: 5, source: .computed)
        #expect(result.relatives.map { $0.taxon.id } == fixture.naiveRelatives(of: fixture.assembled.ids.firstIndex(of: species[0])!, n: 5).map(\.id))
        let comparison = try await service.compare(species[0], species[1])
        #expect(comparison.pathFromA.first?.id == species[0])
    }

    @Test func aSwitchBuildsTheNewDatabaseAndDropsTheOld() async throws {
        let one = try CompareFixture.make(.random, count: 200, seed: 3)
        let two = try CompareFixture.make(.forest, count: 250, seed: 4)
        defer { one.remove(); two.remove() }
        let provider = DatabaseProvider(bundled: one.database)
        let lca = LCAService(provider: provider, maxNodes: .max)
        await lca.prepare(one.database)
        await lca.waitUntilBuilt(one.database)
        weak let old = await lca.snapshot(for: one.database)
        #expect(old != nil)
        await provider.activate(two.database)
        // A request still holding the old database starts nothing: it gets the old tree while it is kept.
        #expect(await lca.snapshot(for: one.database) === old)
        await lca.waitUntilBuilt(two.database)
        #expect(await lca.snapshot(for: one.database) == nil)
        let stats = await lca.stats(for: two.database)
        #expect(stats.state == .ready && stats.nodes == 250)
        // The old build task may still be unwinding on another thread for a moment.
        for _ in 0..<200 where old != nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(old == nil, "the old tree is released once nothing uses it")
        // Answers during and after the switch are right for the database each request holds.
        let service = CompareService(databases: provider, lca: lca)
        // Keys k200… exist only in the second database.
        let onlyInTwo = two.assembled.ids[two.assembled.taxa.firstIndex { $0.key == "k240" }!]
        #expect(try await service.compare(onlyInTwo, onlyInTwo).a.id == onlyInTwo)
        await #expect(throws: TaxonomyError.taxonNotFound(onlyInTwo)) {
            try await service.compare(onlyInTwo, onlyInTwo, lang: "en", in: one.database, using: nil)
        }
    }
}
