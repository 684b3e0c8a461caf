/// The clade two compared taxa share (their lowest common ancestor) as fields a screen can lay
/// out in any language; `sharedCladeDescription` is the same in an English sentence.
public struct SharedClade: Codable, Sendable, Equatable {
    /// How the two taxa sit in the clade.
    public enum Relation: String, Codable, Sendable {
        /// `a == b`: the clade is the taxon itself.
        case sameTaxon
        /// Neither is the other's ancestor: both lie below the clade.
        case bothWithin
        /// `a` is the clade, an ancestor of `b`.
        case bWithinA
        /// `b` is the clade, an ancestor of `a`.
        case aWithinB
    }

    public var id: Int64
    /// Absent for an unranked clade.
    public var rank: Rank?
    public var scientificName: String
    /// In the requested language, falling back to English.
    public var preferredCommonName: String?
    /// The language tag of `preferredCommonName`.
    public var preferredCommonNameLang: String?
    public var relation: Relation

    /// The clade `lca` of `a` and `b`.
    init(a: Taxon, b: Taxon, lca: Taxon) {
        id = lca.id
        rank = lca.rank
        scientificName = lca.scientificName
        preferredCommonName = lca.preferredCommonName
        preferredCommonNameLang = lca.preferredCommonNameLang
        relation = a.id == b.id ? .sameTaxon : lca.id == a.id ? .bWithinA : lca.id == b.id ? .aWithinB : .bothWithin
    }
}
