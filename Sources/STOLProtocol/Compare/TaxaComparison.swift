/// `compare/taxa`'s answer: how two taxa are related.
public struct TaxaComparison: Codable, Hashable, Sendable {
    public var a: Taxon
    public var b: Taxon
    /// Their lowest common ancestor.
    public var lca: Taxon
    /// From the taxon up to and including the LCA.
    public var pathFromA: [Taxon]
    public var pathFromB: [Taxon]
    /// Edges from one taxon to the other through the LCA.
    public var taxonomicDistance: Int
    /// The LCA as structured fields, with how `a` and `b` sit in it.
    public var sharedClade: SharedClade
    /// `sharedClade` in an English sentence ("Both are in order Carnivora").
    public var sharedCladeDescription: String
    /// The Jaccard index of the two taxa's trait terms, 0…1. Null (not omitted) when either side
    /// has no traits or `includeTraitSimilarity` was false.
    public var traitSimilarity: Double?
    /// Per trait key, the values both share and those only one has.
    public var traitDeltas: [TraitDelta]

    public init(
        a: Taxon, b: Taxon, lca: Taxon, pathFromA: [Taxon], pathFromB: [Taxon], taxonomicDistance: Int, sharedClade: SharedClade,
        sharedCladeDescription: String, traitSimilarity: Double?, traitDeltas: [TraitDelta]
    ) {
        self.a = a
        self.b = b
        self.lca = lca
        self.pathFromA = pathFromA
        self.pathFromB = pathFromB
        self.taxonomicDistance = taxonomicDistance
        self.sharedClade = sharedClade
        self.sharedCladeDescription = sharedCladeDescription
        self.traitSimilarity = traitSimilarity
        self.traitDeltas = traitDeltas
    }

    enum CodingKeys: String, CodingKey {
        case a, b, lca, pathFromA, pathFromB, taxonomicDistance, sharedClade, sharedCladeDescription, traitSimilarity, traitDeltas
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(a, forKey: .a)
        try c.encode(b, forKey: .b)
        try c.encode(lca, forKey: .lca)
        try c.encode(pathFromA, forKey: .pathFromA)
        try c.encode(pathFromB, forKey: .pathFromB)
        try c.encode(taxonomicDistance, forKey: .taxonomicDistance)
        try c.encode(sharedClade, forKey: .sharedClade)
        try c.encode(sharedCladeDescription, forKey: .sharedCladeDescription)
        try c.encode(traitSimilarity, forKey: .traitSimilarity)  // null when absent
        try c.encode(traitDeltas, forKey: .traitDeltas)
    }
}

/// One trait key compared: the values both taxa share and those only one has, as the first
/// taxon that has them writes them.
public struct TraitDelta: Codable, Hashable, Sendable {
    public var key: String
    public var shared: [String]
    public var onlyA: [String]
    public var onlyB: [String]

    public init(key: String, shared: [String], onlyA: [String], onlyB: [String]) {
        self.key = key
        self.shared = shared
        self.onlyA = onlyA
        self.onlyB = onlyB
    }
}
