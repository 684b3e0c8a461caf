/// `compare/taxa`: how two taxa are related: LCA, distance, paths, shared clade, traits.
public struct CompareTaxaRequest: RPCRequest, Hashable {
    public typealias Response = TaxaComparison
    public static let method = "compare/taxa"

    public var a: TaxonID
    public var b: TaxonID
    public var lang: String?
    /// False skips the trait similarity (null in the answer); true when absent.
    public var includeTraitSimilarity: Bool?

    public init(a: TaxonID, b: TaxonID, lang: String? = nil, includeTraitSimilarity: Bool? = nil) {
        self.a = a
        self.b = b
        self.lang = lang
        self.includeTraitSimilarity = includeTraitSimilarity
    }
}

/// `compare/lca`: the lowest common ancestor of each pair, from the in-memory index.
public struct CompareLCARequest: RPCRequest, Hashable {
    public typealias Response = LCABatch
    public static let method = "compare/lca"

    /// Up to 100,000 pairs `[a, b]`.
    public var pairs: [[TaxonID]]

    public init(pairs: [[TaxonID]]) {
        self.pairs = pairs
    }
}

/// `compare/relatives`: a species' closest relatives.
public struct CompareRelativesRequest: RPCRequest, Hashable {
    public typealias Response = Relatives
    public static let method = "compare/relatives"

    public var id: TaxonID
    /// 1…100; 10 when absent.
    public var n: Int?
    /// `precomputed` (the default) or `computed`.
    public var source: RelativesSource?
    /// How many tree nodes a computed walk may visit; 5,000 when absent.
    public var maxCandidates: Int?
    public var lang: String?

    public init(id: TaxonID, n: Int? = nil, source: RelativesSource? = nil, maxCandidates: Int? = nil, lang: String? = nil) {
        self.id = id
        self.n = n
        self.source = source
        self.maxCandidates = maxCandidates
        self.lang = lang
    }
}

/// `compare/stats`: the state of the in-memory tree.
public struct CompareStatsRequest: RPCRequest, Hashable {
    public typealias Response = LCAStats
    public static let method = "compare/stats"
    public init() {}
}
