import Foundation
import GRDB
import STOLJSON
import STOLProtocol

// Reads of many taxa at once, for answers whose ids come from the in-memory tree (lineages,
// compare paths, relatives): one cached statement instead of a recursive walk or one query per id.

extension TaxonomyStore {
    /// The ancestors of `id` from the root down to its parent, as `ancestors(_:lang:)` answers them;
    /// with `tree` (the database's in-memory tree) the ids come from the tree and the taxa from one
    /// batched read, without it from the recursive SQL walk.
    public func ancestors(_ id: Int64, lang: String = "en", tree: LCASnapshot?) async throws -> [Taxon] {
        guard let tree else { return try await ancestors(id, lang: lang) }
        guard let node = tree.node(for: id) else { throw TaxonomyError.taxonNotFound(id) }
        // As the SQL walk: a lineage longer than the engine serves is a fault, not an answer.
        guard Int(tree.tree.depth[Int(node)]) <= TaxonomyLimits.maxDepth else { throw database.reporting(DataFault.lineage(tooDeep: id)) }
        let nodes = Array(tree.tree.ancestors(of: node).reversed())
        let select = Self.selectTaxon(in: database)
        return try await database.read { db in
            var lineage = try Self.taxa(db, nodes: nodes, in: tree, lang: lang, select: select)
            try Homonyms.disambiguate(&lineage, in: db, tree: tree)
            return lineage
        }
    }

    /// The taxa of `nodes` of `tree`, in order, with preferred names in `lang` (no disambiguation):
    /// inner nodes from the tree's cache when read before, the others in one batched read.
    static func taxa(_ db: Database, nodes: [Int32], in tree: LCASnapshot, lang: String, select: String) throws -> [Taxon] {
        let cached = tree.cache.taxa(nodes, lang: lang)
        let missing = nodes.indices.filter { cached[$0] == nil }
        let found = missing.isEmpty ? [:] : try taxaByID(db, missing.map { tree.id(of: nodes[$0]) }, lang: lang, select: select)
        var kept: [(node: Int32, taxon: Taxon)] = []
        let out = try nodes.indices.map { i in
            if let taxon = cached[i] { return taxon }
            let node = nodes[i]
            guard let taxon = found[tree.id(of: node)] else { throw TaxonomyError.taxonNotFound(tree.id(of: node)) }
            if tree.isInner(node) { kept.append((node, taxon)) }
            return taxon
        }
        tree.cache.keep(kept, lang: lang)
        return out
    }

    /// The taxa with `ids`, in that order, with preferred names in `lang` (no disambiguation); an id
    /// not in the database fails with `taxonNotFound`.
    static func taxa(_ db: Database, _ ids: [Int64], lang: String, select: String) throws -> [Taxon] {
        let found = try taxaByID(db, ids, lang: lang, select: select)
        return try ids.map { id in
            guard let taxon = found[id] else { throw TaxonomyError.taxonNotFound(id) }
            return taxon
        }
    }

    /// The taxa with `ids` (any order, repeats allowed) by id, with preferred names in `lang`; ids
    /// not in the database are left out. `select` is `selectTaxon(in:)` of `db`'s database.
    static func taxaByID(_ db: Database, _ ids: some Collection<Int64>, lang: String, select: String) throws -> [Int64: Taxon] {
        var out: [Int64: Taxon] = [:]
        out.reserveCapacity(ids.count)
        guard !ids.isEmpty else { return out }
        // One statement whatever the count: the ids go in as a JSON array.
        let statement = try db.cachedStatement(sql: select + " WHERE t.id IN (SELECT value FROM json_each(:ids))")
        try statement.forEachStoredRow(arguments(lang, ["ids": jsonArray(ids)]), rowids: TaxonomyStore.taxaRowIDs) { row in
            let taxon = try taxon(from: row)
            out[taxon.id] = taxon
        }
        return out
    }

    /// The taxa with `ids` by id, disambiguated, as `taxon/get` answers them: those in `cache` from
    /// it, the others in one batched read, then kept in it. Ids not in the database are left out.
    static func disambiguatedTaxa(_ db: Database, _ ids: [Int64], lang: String, select: String, cache: TaxonCache) throws -> [Int64: Taxon] {
        var out: [Int64: Taxon] = [:]
        out.reserveCapacity(ids.count)
        var missing: [Int64] = []
        for id in ids {
            if let cached = cache.taxon(id, lang: lang) { out[id] = cached } else { missing.append(id) }
        }
        guard !missing.isEmpty else { return out }
        var read = Array(try taxaByID(db, missing, lang: lang, select: select).values)
        try Homonyms.disambiguate(&read, in: db)
        for taxon in read {
            out[taxon.id] = taxon
            cache.keep(taxon, lang: lang)
        }
        return out
    }

    /// `["a","b"]`, for `json_each`: each string escaped as the protocol writes it.
    static func jsonArray(_ strings: [String]) -> String {
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (i, string) in strings.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.writeString(string, into: &out)
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    /// `[1,2,3]`.
    static func jsonArray(_ ids: some Collection<Int64>) -> String {
        var text = "["
        text.reserveCapacity(ids.count * 9 + 2)
        for (i, id) in ids.enumerated() {
            if i > 0 { text += "," }
            text += String(id)
        }
        return text + "]"
    }
}
