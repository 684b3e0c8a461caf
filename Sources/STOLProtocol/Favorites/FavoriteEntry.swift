/// A favourite with the display fields of the active taxonomy database.
public struct FavoriteEntry: Codable, Hashable, Sendable, Identifiable {
    public var taxonId: TaxonID
    /// When it was added (UTC, ISO 8601 with milliseconds).
    public var createdAt: String
    /// False when the active database has no taxon with this id (the favourite is kept).
    public var available: Bool
    public var scientificName: String?
    public var commonName: String?
    /// The language tag of `commonName` (`en` when it fell back to English).
    public var commonNameLang: String?
    public var rank: Rank?
    public var conservationStatus: ConservationStatus?
    /// Present when another taxon of the active database has the same scientific name.
    public var disambiguation: Disambiguation?

    public var id: TaxonID { taxonId }

    public init(
        taxonId: TaxonID, createdAt: String, available: Bool, scientificName: String? = nil, commonName: String? = nil,
        commonNameLang: String? = nil, rank: Rank? = nil, conservationStatus: ConservationStatus? = nil, disambiguation: Disambiguation? = nil
    ) {
        self.taxonId = taxonId
        self.createdAt = createdAt
        self.available = available
        self.scientificName = scientificName
        self.commonName = commonName
        self.commonNameLang = commonNameLang
        self.rank = rank
        self.conservationStatus = conservationStatus
        self.disambiguation = disambiguation
    }
}

/// The orders `favorites/list` and `favorites/export` offer.
public enum FavoritesSort: String, Hashable, Sendable, CaseIterable, EnumeratedParam {
    /// Most recently added first; adds within the same millisecond by taxon id.
    case recent
    /// A–Z by scientific name.
    case scientific
    /// A–Z by common name; taxa without one follow, A–Z by scientific name.
    case common
}
