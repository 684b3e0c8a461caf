import GRDB
import STOLJSON
import STOLProtocol

/// Finds the disambiguation of taxa whose scientific name is shared, at read time, so that
/// databases built before homonyms were handled get it too.
///
/// The ancestor shown is one where the lineages differ: of the ancestors that no namesake
/// shares (those below the deepest ancestor it has in common with any of them), the highest
/// that is a class or lower, since a class (Aves, Magnoliopsida) says most to a reader; when all
/// of them rank above class, or have no rank, the nearest. *Morus* the gannet and *Morus* the
/// mulberry share only Eukaryota: "Morus (genus in Aves)" and "Morus (genus in Magnoliopsida)".
///
/// Search and favourites call `disambiguate(_:in:)` on the taxa they return, inside their own
/// read, or `disambiguation(id:scientificName:rank:in:)` for one row; it costs one indexed
/// lookup per taxon, and the lineages only where a name is shared.
public enum Homonyms {
    /// Fills in `disambiguation` on each taxon whose scientific name another taxon shares. One
    /// query finds which of the names are shared; only those taxa are looked at one by one. With
    /// `tree` (the database's in-memory tree) lineages come from it, and what was worked out for
    /// inner nodes and shared names is kept in its cache.
    public static func disambiguate(_ taxa: inout [Taxon], in db: Database, tree: LCASnapshot? = nil) throws {
        guard !taxa.isEmpty else { return }
        let nodes = tree.map { tree in taxa.map { tree.node(for: $0.id) ?? -1 } } ?? []
        let known = tree?.cache.disambiguations(nodes) ?? Array(repeating: nil, count: taxa.count)
        let unknown = taxa.indices.filter { known[$0] == nil }
        guard !unknown.isEmpty else {
            for i in taxa.indices { taxa[i].disambiguation = known[i] ?? nil }
            return
        }
        let shared = try sharedNames(unknown.map { taxa[$0].scientificName }, in: db)
        var kept: [(node: Int32, disambiguation: Disambiguation?)] = []
        for i in taxa.indices {
            if let before = known[i] {
                taxa[i].disambiguation = before
                continue
            }
            let found = shared.contains(taxa[i].scientificName)
                ? try disambiguation(id: taxa[i].id, scientificName: taxa[i].scientificName, rank: taxa[i].rank, in: db, tree: tree) : nil
            taxa[i].disambiguation = found
            if let tree, nodes[i] >= 0, found != nil || tree.isInner(nodes[i]) { kept.append((nodes[i], found)) }
        }
        tree?.cache.keep(kept)
    }

    /// Those of `names` that more than one taxon bears, exactly as written. A name not in this set
    /// has no namesake, so `disambiguation(id:scientificName:rank:in:)` would answer nil for it.
    static func sharedNames(_ names: [String], in db: Database) throws -> Set<String> {
        var list: [UInt8] = []
        names.writeJSON(into: &list)
        // Through the (binary) index on scientific_name of the specification's schema.
        let statement = try db.cachedStatement(sql: """
            SELECT scientific_name FROM taxa WHERE scientific_name IN (SELECT value FROM json_each(?))
            GROUP BY scientific_name HAVING count(*) > 1
            """)
        return Set(try statement.storedRows([String(decoding: list, as: UTF8.self)]) { try $0.text(0, "taxa.scientific_name") })
    }

    /// The disambiguation of one taxon, or nil when no other taxon has its name. With `tree`, the
    /// lineages compared come from it instead of one recursive walk per namesake.
    public static func disambiguation(id: Int64, scientificName: String, rank: Rank?, in db: Database, tree: LCASnapshot? = nil) throws -> Disambiguation? {
        // The index on scientific_name is NOCASE: ask in its collation, then keep exact matches.
        let rows = try db.storedRows("SELECT id, scientific_name FROM taxa WHERE scientific_name = ? COLLATE NOCASE LIMIT 64", [scientificName], rowids: TaxonomyStore.taxaRowIDs) { row in
            (id: try row.taxonID(0, "taxa.id"), name: try row.text(1, "taxa.scientific_name"))
        }
        let namesakes: [Int64] = rows.compactMap { $0.id != id && $0.name == scientificName ? $0.id : nil }
        guard !namesakes.isEmpty else { return nil }
        let differing: ArraySlice<Ancestor>
        if let tree, let fromTree = try differingAncestors(id, namesakes, tree: tree, in: db) {
            differing = fromTree
        } else {
            let own = try lineage(of: id, in: db)
            var deepestShared = 0
            for other in namesakes {
                let theirs = Set(try lineage(of: other, in: db).map(\.id))
                var shared = 0
                while shared < own.count, theirs.contains(own[shared].id) { shared += 1 }
                deepestShared = max(deepestShared, shared)
            }
            differing = own[deepestShared...]
        }
        let rankText = rank.map { $0.rawValue }
        guard let chosen = differing.first(where: { ($0.rank?.level ?? -1) >= Rank.class.level }) ?? differing.last else {
            return Disambiguation(display: "\(scientificName) (\(rankText ?? "unranked"))")
        }
        let display = rankText.map { "\(scientificName) (\($0) in \(chosen.name))" } ?? "\(scientificName) (in \(chosen.name))"
        return Disambiguation(ancestorId: chosen.id, ancestorName: chosen.name, ancestorRank: chosen.rank, display: display)
    }

    /// An ancestor as the disambiguation needs it.
    typealias Ancestor = (id: Int64, name: String, rank: Rank?)

    /// The ancestors of `id` that none of `namesakes` shares, root first, from the tree (only
    /// their names and ranks are read); nil when a taxon is not in the tree.
    static func differingAncestors(_ id: Int64, _ namesakes: [Int64], tree: LCASnapshot, in db: Database) throws -> ArraySlice<Ancestor>? {
        guard let node = tree.node(for: id) else { return nil }
        let own = Array(tree.tree.ancestors(of: node).reversed())
        var deepestShared = 0
        for other in namesakes {
            guard let theirNode = tree.node(for: other) else { return nil }
            let theirs = Set(tree.tree.ancestors(of: theirNode))
            var shared = 0
            while shared < own.count, theirs.contains(own[shared]) { shared += 1 }
            deepestShared = max(deepestShared, shared)
        }
        let ids = own[deepestShared...].map(tree.id(of:))
        var found: [Int64: Ancestor] = [:]
        for ancestor in try db.storedRows("SELECT id, scientific_name, rank FROM taxa WHERE id IN (SELECT value FROM json_each(?))",
                                          [TaxonomyStore.jsonArray(ids)], rowids: TaxonomyStore.taxaRowIDs, ancestor(from:)) {
            found[ancestor.id] = ancestor
        }
        var differing: [Ancestor] = []
        for ancestor in ids {
            guard let row = found[ancestor] else { return nil }
            differing.append(row)
        }
        return differing[...]
    }

    /// `id`, `scientific_name` and `rank`, the first three columns of a `taxa` row (rowid first).
    static func ancestor(from row: StoredRow) throws -> Ancestor {
        (try row.taxonID(0, "taxa.id"), try row.text(1, "taxa.scientific_name"), try row.memberOrNull(Rank.self, 2, "taxa.rank"))
    }

    /// Ancestors of `id`, root first, parent last; a `DataFault` when they do not reach a root.
    static func lineage(of id: Int64, in db: Database) throws -> [Ancestor] {
        // Each step reads the parent through a subquery: written as a join, SQLite builds a Bloom
        // filter over the whole taxa table at every step (0.8 s per lineage on NCBI's 2.26 M taxa).
        // The walk starts at the taxon itself, so that the check below sees its parent.
        let sql = """
            WITH RECURSIVE up(id, level) AS (
                SELECT ?, 0
                UNION ALL
                SELECT (SELECT t.parent_id FROM taxa t WHERE t.id = up.id), up.level + 1 FROM up
                WHERE up.id IS NOT NULL AND up.level <= \(TaxonomyLimits.maxDepth)
            )
            SELECT t.id, t.scientific_name, t.rank, t.parent_id FROM taxa t JOIN up ON up.id = t.id ORDER BY up.level DESC
            """
        var links: [(id: Int64, parent: Int64?)] = []
        var lineage = try db.storedRows(sql, [id], rowids: TaxonomyStore.taxaRowIDs) { row in
            links.append((try row.taxonID(0, "taxa.id"), try row.taxonIDOrNull(3, "taxa.parent_id")))
            return try ancestor(from: row)
        }
        guard let own = links.popLast() else { return [] }
        try TaxonomyStore.checkRooted(links, of: own)
        lineage.removeLast()
        return lineage
    }
}
