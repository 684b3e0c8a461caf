import Foundation
import GRDB
import STOLProtocol
import STOLSupport

/// `compare/taxa` and `compare/relatives`: from the in-memory tree when it is ready, from SQL
/// otherwise; both ways give the same answers.
public struct CompareService: Sendable {
    public let databases: DatabaseProvider
    public let lca: LCAService

    public init(databases: DatabaseProvider, lca: LCAService) {
        self.databases = databases
        self.lca = lca
    }

    // MARK: compare/taxa

    /// With `includeTraitSimilarity` false (the specification's `CompareConfig` switch) the
    /// similarity is not computed and is null; the trait deltas are always there.
    public func compare(_ a: Int64, _ b: Int64, lang: String = "en", includeTraitSimilarity: Bool = true) async throws -> TaxaComparison {
        // The database is taken once: a switch mid-request never mixes two databases.
        let database = await databases.current()
        return try await compare(
            a, b, lang: lang, includeTraitSimilarity: includeTraitSimilarity, in: database, using: await lca.snapshot(for: database))
    }

    /// Compares in `database`; a nil `snapshot` answers from SQL.
    public func compare(
        _ a: Int64, _ b: Int64, lang: String, includeTraitSimilarity: Bool = true, in database: TaxonomyDatabase, using snapshot: LCASnapshot?
    ) async throws -> TaxaComparison {
        let select = TaxonomyStore.selectTaxon(in: database)
        var fromA: [Taxon], fromB: [Taxon], traits: ([Trait], [Trait])
        // Taxa in different trees (different roots) meet only at the root of all life, `TreeOfLife`:
        // each path then runs up to its root, and the pseudo-taxon ends both.
        var roots: Int?
        if let snapshot {
            guard let na = snapshot.node(for: a) else { throw TaxonomyError.taxonNotFound(a) }
            guard let nb = snapshot.node(for: b) else { throw TaxonomyError.taxonNotFound(b) }
            let common = snapshot.index.lca(na, nb)
            for (id, node) in [(a, na), (b, nb)] where Int(snapshot.tree.depth[Int(node)]) > TaxonomyLimits.maxDepth {
                throw database.reporting(DataFault.lineage(tooDeep: id))
            }
            let pathA = common.map { snapshot.path(from: na, upTo: $0) } ?? [na] + snapshot.tree.ancestors(of: na)
            let pathB = common.map { snapshot.path(from: nb, upTo: $0) } ?? [nb] + snapshot.tree.ancestors(of: nb)
            // Both paths in one read; the clades near the root usually come from the tree's cache.
            let (taxa, read, rootCount) = try await database.read { db in
                (try TaxonomyStore.taxa(db, nodes: pathA + pathB, in: snapshot, lang: lang, select: select),
                 (try TaxonomyStore.traits(db, a), try TaxonomyStore.traits(db, b)),
                 common == nil ? try TreeOfLife.rootCount(db) : nil)
            }
            fromA = Array(taxa[..<pathA.count])
            fromB = Array(taxa[pathA.count...])
            traits = read
            roots = rootCount
        } else {
            let (pathA, pathB, acrossLife) = try await database.read { db in
                let chainA = try Self.chain(db, a)
                guard !chainA.isEmpty else { throw TaxonomyError.taxonNotFound(a) }
                let chainB = try Self.chain(db, b)
                guard !chainB.isEmpty else { throw TaxonomyError.taxonNotFound(b) }
                var positionInB: [Int64: Int] = [:]
                for (i, id) in chainB.enumerated() where positionInB[id] == nil { positionInB[id] = i }
                guard let i = chainA.firstIndex(where: { positionInB[$0] != nil }), let j = positionInB[chainA[i]] else {
                    return (chainA, chainB, true)
                }
                return (Array(chainA[...i]), Array(chainB[...j]), false)
            }
            let (taxa, read, rootCount) = try await database.read { db in
                (try TaxonomyStore.taxaByID(db, pathA + pathB, lang: lang, select: select),
                 (try TaxonomyStore.traits(db, a), try TaxonomyStore.traits(db, b)),
                 acrossLife ? try TreeOfLife.rootCount(db) : nil)
            }
            func get(_ id: Int64) throws -> Taxon {
                guard let t = taxa[id] else { throw TaxonomyError.taxonNotFound(id) }
                return t
            }
            fromA = try pathA.map(get)
            fromB = try pathB.map(get)
            traits = read
            roots = rootCount
        }
        if let roots {
            let life = TreeOfLife.taxon(lang: lang, roots: roots)
            fromA.append(life)
            fromB.append(life)
        }
        let common = fromA[fromA.count - 1]
        let traitsCompared = TraitComparison.compare(traits.0, traits.1)
        return TaxaComparison(
            a: fromA[0], b: fromB[0], lca: common, pathFromA: fromA, pathFromB: fromB,
            taxonomicDistance: fromA.count + fromB.count - 2,
            sharedClade: SharedClade(a: fromA[0], b: fromB[0], lca: common),
            sharedCladeDescription: Self.describe(fromA, fromB),
            traitSimilarity: includeTraitSimilarity ? traitsCompared.similarity : nil,
            traitDeltas: traitsCompared.deltas)
    }

    /// "Both are in order Carnivora", "Both are in family Felidae (Cats)"; when one is the other's
    /// ancestor, "Panthera leo is in family Felidae (Cats)"; across trees, "Both are in Biota (Life),
    /// the root of the tree of life: their lines part there, into Eukaryota and Bacteria". The
    /// paths run from each taxon up to the clade they share.
    static func describe(_ pathFromA: [Taxon], _ pathFromB: [Taxon]) -> String {
        let a = pathFromA[0], b = pathFromB[0], lca = pathFromA[pathFromA.count - 1]
        if lca.id == TreeOfLife.id, pathFromA.count > 1, pathFromB.count > 1 {
            let rootA = pathFromA[pathFromA.count - 2].scientificName, rootB = pathFromB[pathFromB.count - 2].scientificName
            return "Both are in \(clade(lca)), the root of the tree of life: their lines part there, into \(rootA) and \(rootB)"
        }
        return describe(a, b, lca)
    }

    /// The sentence for `a` and `b` whose lowest common ancestor is `lca`.
    static func describe(_ a: Taxon, _ b: Taxon, _ lca: Taxon) -> String {
        if a.id == b.id { return "These are the same taxon" }
        if lca.id == a.id { return "\(b.scientificName) is in \(clade(lca))" }
        if lca.id == b.id { return "\(a.scientificName) is in \(clade(lca))" }
        return "Both are in \(clade(lca))"
    }

    /// "family Felidae (Cats)": the rank, the name, and the common name when it says more.
    private static func clade(_ taxon: Taxon) -> String {
        var clade = (taxon.rank.map { $0.rawValue + " " } ?? "") + taxon.scientificName
        if let common = taxon.preferredCommonName, common.lowercased() != taxon.scientificName.lowercased() {
            clade += " (\(common))"
        }
        return clade
    }

    // MARK: compare/relatives

    public func relatives(of id: Int64, n: Int = 10, source: RelativesSource = .precomputed, maxCandidates: Int = 5000, lang: String = "en") async throws -> Relatives {
        let database = await databases.current()
        return try await relatives(of: id, n: n, source: source, maxCandidates: maxCandidates, lang: lang, in: database, using: await lca.snapshot(for: database))
    }

    /// Relatives in `database`; a nil `snapshot` computes them from SQL.
    public func relatives(
        of id: Int64, n: Int, source: RelativesSource, maxCandidates: Int, lang: String, in database: TaxonomyDatabase, using snapshot: LCASnapshot?
    ) async throws -> Relatives {
        let taxon = try await TaxonomyStore(database: database).taxon(id, lang: lang)
        // A named subspecies or variety (NCBI's dog) has relatives too: its species first.
        guard taxon.rank?.isSpeciesOrBelow == true else { throw CompareError.notASpecies(id) }
        if source == .precomputed, let stored = try await precomputed(id, n: n, in: database) {
            return try await materialise(stored, source: .precomputed, truncated: false, lang: lang, in: database)
        }
        let found: (candidates: [Candidate], truncated: Bool)
        if let snapshot {
            guard let node = snapshot.node(for: id) else { throw TaxonomyError.taxonNotFound(id) }
            let walk: @Sendable () -> RelativesFinder.Result = {
                RelativesFinder(tree: snapshot.tree, isSpecies: snapshot.isSpecies).candidates(of: node, n: n, maxVisited: maxCandidates)
            }
            // A big budget can mean a long walk: keep it off the cooperative pool.
            let result = maxCandidates > 100_000 ? try await OffPool.run(walk) : walk()
            found = (
                result.candidates.map {
                    Candidate(id: snapshot.id(of: $0.node), lca: snapshot.id(of: $0.lca), lcaDepth: Int(snapshot.tree.depth[Int($0.lca)]), distance: Int($0.distance))
                }, result.truncated)
        } else {
            found = try await database.read { db in try Self.walk(db, from: id, n: n, maxVisited: maxCandidates) }
        }
        let chosen = try await best(found.candidates, n: n, in: database)
        return try await materialise(chosen, source: .computed, truncated: found.truncated, lang: lang, in: database)
    }

    struct Candidate: Sendable {
        var id: Int64
        var lca: Int64
        var lcaDepth: Int
        var distance: Int
        var name: String?
    }

    /// Stored relatives, or nil when they cannot answer (no table, no rows, `n` above `top_n`).
    func precomputed(_ id: Int64, n: Int, in database: TaxonomyDatabase) async throws -> [Candidate]? {
        let stored = database.datasetInfo["top_n"].flatMap { Int($0) }
        if let stored, n > stored { return nil }
        return try await database.read { db -> [Candidate]? in
            guard try db.tableExists("top_n_relatives") else { return nil }
            let rows = try db.storedRows(
                "SELECT relative_id, lca_id, lca_depth, distance, rowid FROM top_n_relatives WHERE taxon_id = ? ORDER BY rank_order LIMIT ?", [id, n], rowids: [("top_n_relatives", 4)]
            ) { row in
                Candidate(id: try row.taxonID(0, "top_n_relatives.relative_id"), lca: try row.taxonID(1, "top_n_relatives.lca_id"),
                          lcaDepth: Int(truncatingIfNeeded: try row.integer(2, "top_n_relatives.lca_depth")),
                          distance: Int(truncatingIfNeeded: try row.integer(3, "top_n_relatives.distance")))
            }
            guard !rows.isEmpty, stored != nil || rows.count >= n else { return nil }
            return rows
        }
    }

    /// The first `n` by (distance, scientific name, id); names are read only for candidates that
    /// can still make the cut.
    func best(_ candidates: [Candidate], n: Int, in database: TaxonomyDatabase) async throws -> [Candidate] {
        var kept = candidates.sorted { $0.distance < $1.distance }
        if kept.count > n {
            let cutoff = kept[n - 1].distance
            kept = kept.filter { $0.distance <= cutoff }
        }
        let missing = kept.filter { $0.name == nil }.map(\.id)
        if !missing.isEmpty {
            let names = try await database.read { db in try Self.names(db, missing) }
            for i in kept.indices where kept[i].name == nil { kept[i].name = names[kept[i].id] ?? "" }
        }
        kept.sort { x, y in
            if x.distance != y.distance { return x.distance < y.distance }
            if x.name != y.name { return (x.name ?? "") < (y.name ?? "") }
            return x.id < y.id
        }
        return Array(kept.prefix(n))
    }

    func materialise(_ chosen: [Candidate], source: RelativesSource, truncated: Bool, lang: String, in database: TaxonomyDatabase) async throws -> Relatives {
        let ids = Set(chosen.flatMap { [$0.id, $0.lca] })
        let select = TaxonomyStore.selectTaxon(in: database)
        let taxa = try await database.read { db in try TaxonomyStore.taxaByID(db, ids, lang: lang, select: select) }
        var out: [Relative] = []
        for (i, c) in chosen.enumerated() {
            guard let taxon = taxa[c.id], let lca = taxa[c.lca] else { throw TaxonomyError.taxonNotFound(taxa[c.id] == nil ? c.id : c.lca) }
            out.append(Relative(rankOrder: i + 1, taxon: taxon, lca: lca, lcaDepth: c.lcaDepth, distance: c.distance))
        }
        return Relatives(relatives: out, source: source, truncated: truncated)
    }

    /// The SQL twin of `RelativesFinder`: the same outward walk (own subtree, then parent, grandparent,
    /// … each breadth-first, children in name order), the same stopping rules and the same
    /// `maxVisited` count, so both give the same candidates.
    static func walk(_ db: Database, from species: Int64, n: Int, maxVisited: Int) throws -> (candidates: [Candidate], truncated: Bool) {
        let chain = try rootedChain(db, species, also: "t.rank IS 'species'").map { (id: $0.id, isSpecies: $0.extra == 1) }
        guard !chain.isEmpty else { throw TaxonomyError.taxonNotFound(species) }
        let depth = chain.count - 1
        let statement = try db.cachedStatement(sql: "SELECT id, rank, scientific_name FROM taxa WHERE parent_id = ? ORDER BY scientific_name, id")
        func children(_ parent: Int64) throws -> [(id: Int64, isSpecies: Bool, name: String)] {
            try statement.storedRows([parent], rowids: TaxonomyStore.taxaRowIDs) { row in
                (try row.taxonID(0, "taxa.id"), try row.memberOrNull(Rank.self, 1, "taxa.rank") == .species, try row.text(2, "taxa.scientific_name"))
            }
        }
        var found: [Candidate] = []
        var histogram: [Int: Int] = [:]
        func count(below d: Int) -> Int { histogram.reduce(0) { $0 + ($1.key < d ? $1.value : 0) } }
        var visited = 0
        var child: Int64? = nil
        for (up, link) in chain.enumerated() {
            let ancestor = link.id
            if up > 0, link.isSpecies {
                found.append(Candidate(id: ancestor, lca: ancestor, lcaDepth: depth - up, distance: up))
                histogram[up, default: 0] += 1
            }
            if count(below: up + 1) >= n { break }
            var parents = [ancestor]
            var level = 1
            levels: while !parents.isEmpty {
                let d = up + level
                let closer = count(below: d)
                if closer >= n { break }
                var next: [Int64] = []
                var takenHere = 0
                for parent in parents {
                    for node in try children(parent) where node.id != child {
                        visited += 1
                        if visited > maxVisited { return (found, true) }
                        if node.isSpecies {
                            found.append(Candidate(id: node.id, lca: ancestor, lcaDepth: depth - up, distance: d, name: node.name))
                            histogram[d, default: 0] += 1
                            takenHere += 1
                            if level == 1, takenHere >= n - closer { break levels }
                        }
                        next.append(node.id)
                    }
                }
                parents = next
                level += 1
            }
            child = ancestor
        }
        return (found, false)
    }

    // MARK: SQL helpers

    /// Ids from `id` up to its root; empty when there is no such taxon.
    static func chain(_ db: Database, _ id: Int64) throws -> [Int64] {
        try rootedChain(db, id).map(\.id)
    }

    /// `id` and its ancestors up to the root, with `also` (an integer expression over the row `t`
    /// of each) when given; a `DataFault` when they do not reach a root.
    static func rootedChain(_ db: Database, _ id: Int64, also: String = "0") throws -> [(id: Int64, extra: Int64)] {
        let rows = try db.storedRows("""
            WITH RECURSIVE up(id, parent, level) AS (
                SELECT id, parent_id, 0 FROM taxa WHERE id = ?
                UNION ALL
                SELECT t.id, t.parent_id, up.level + 1 FROM taxa t JOIN up ON t.id = up.parent WHERE up.level <= \(TaxonomyLimits.maxDepth)
            )
            SELECT up.id, up.parent, \(also) FROM up JOIN taxa t ON t.id = up.id ORDER BY up.level
            """, [id], rowids: TaxonomyStore.taxaRowIDs) { row in
            (id: try row.taxonID(0, "taxa.id"), parent: try row.taxonIDOrNull(1, "taxa.parent_id"), extra: try row.integerOrNull(2, "taxa.rank") ?? 0)
        }
        guard let own = rows.first else { return [] }
        try TaxonomyStore.checkRooted(rows.dropFirst().reversed().map { ($0.id, $0.parent) }, of: (own.id, own.parent))
        return rows.map { ($0.id, $0.extra) }
    }

    static func names(_ db: Database, _ ids: [Int64]) throws -> [Int64: String] {
        var out: [Int64: String] = [:]
        for chunk in chunks(ids) {
            let list = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            for (id, name) in try db.storedRows("SELECT id, scientific_name FROM taxa WHERE id IN (\(list))", StatementArguments(chunk), rowids: TaxonomyStore.taxaRowIDs, { row in
                (try row.taxonID(0, "taxa.id"), try row.text(1, "taxa.scientific_name"))
            }) {
                out[id] = name
            }
        }
        return out
    }

    private static func chunks(_ ids: [Int64], size: Int = 500) -> [ArraySlice<Int64>] {
        stride(from: 0, to: ids.count, by: size).map { ids[$0..<min($0 + size, ids.count)] }
    }
}

/// Compare requests that are valid but cannot be carried out.
public enum CompareError: Error, Sendable, Equatable {
    case notASpecies(Int64)
}
