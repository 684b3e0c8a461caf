/// `compare/relatives`' answer: a species' closest relatives.
public struct Relatives: Codable, Hashable, Sendable {
    public var relatives: [Relative]
    /// What answered: `precomputed` falls back to `computed` when the stored table cannot.
    public var source: RelativesSource
    /// The walk stopped at `maxCandidates` nodes: closer relatives may have been missed.
    public var truncated: Bool

    public init(relatives: [Relative], source: RelativesSource, truncated: Bool) {
        self.relatives = relatives
        self.source = source
        self.truncated = truncated
    }
}

/// One relative.
public struct Relative: Codable, Hashable, Sendable {
    /// 1 for the closest.
    public var rankOrder: Int
    public var taxon: Taxon
    /// The clade the relative shares with the species.
    public var lca: Taxon
    public var lcaDepth: Int
    public var distance: Int

    public init(rankOrder: Int, taxon: Taxon, lca: Taxon, lcaDepth: Int, distance: Int) {
        self.rankOrder = rankOrder
        self.taxon = taxon
        self.lca = lca
        self.lcaDepth = lcaDepth
        self.distance = distance
    }
}

/// Where relatives come from: the table built with the database, or a walk of the tree.
public enum RelativesSource: String, Hashable, Sendable, CaseIterable, EnumeratedParam {
    case precomputed, computed

    public static var invalidDetail: String { "must be precomputed or computed" }
}
