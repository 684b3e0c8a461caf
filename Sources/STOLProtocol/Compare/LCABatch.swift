import STOLJSON

/// `compare/lca`'s answer: the lowest common ancestors of many pairs at once, ids only — the
/// bulk form of `compare/taxa` for scripts and pipelines, where full taxa and paths would be
/// mostly JSON.
public struct LCABatch: Codable, Hashable, Sendable, JSONWritable {
    /// The LCA of each pair, in order; null when the two taxa share no ancestor (different roots).
    public var lcas: [TaxonID?]
    /// Edges from one taxon to the other through their LCA; null when there is none.
    public var distances: [Int?]
    /// `tree` when answered from the in-memory index, `sql` when from the database.
    public var source: String

    public init(lcas: [TaxonID?], distances: [Int?], source: String) {
        self.lcas = lcas
        self.distances = distances
        self.source = source
    }

    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            o.member("distances", distances)
            o.member("lcas", lcas)
            o.member("source", source)
        }
    }
}
