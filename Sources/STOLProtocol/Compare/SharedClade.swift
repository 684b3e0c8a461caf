/// The clade two compared taxa share (their lowest common ancestor) as fields a screen can lay
/// out in any language; `sharedCladeDescription` is the same in an English sentence.
public struct SharedClade: Codable, Hashable, Sendable {
    /// How the two taxa sit in the clade.
    public enum Relation: String, Codable, Hashable, Sendable {
        /// `a == b`: the clade is the taxon itself.
        case sameTaxon
        /// Neither is the other's ancestor: both lie below the clade.
        case bothWithin
        /// `a` is the clade, an ancestor of `b`.
        case bWithinA
        /// `b` is the clade, an ancestor of `a`.
        case aWithinB
    }

    public var id: TaxonID
    /// Absent for an unranked clade.
    public var rank: Rank?
    public var scientificName: String
    /// In the requested language, falling back to English.
    public var preferredCommonName: String?
    /// The language tag of `preferredCommonName`.
    public var preferredCommonNameLang: String?
    public var relation: Relation

    public init(id: TaxonID, rank: Rank?, scientificName: String, preferredCommonName: String?, preferredCommonNameLang: String?, relation: Relation) {
        self.id = id
        self.rank = rank
        self.scientificName = scientificName
        self.preferredCommonName = preferredCommonName
        self.preferredCommonNameLang = preferredCommonNameLang
        self.relation = relation
    }
}
