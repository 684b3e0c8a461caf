/// A taxon as the protocol shows it. Optional fields are omitted when absent.
public struct Taxon: Codable, Sendable, Equatable {
    public var id: Int64
    public var parentId: Int64?
    /// Absent for unranked taxa.
    public var rank: Rank?
    public var scientificName: String
    public var author: String?
    public var year: Int?
    public var status: TaxonStatus
    public var conservationStatus: ConservationStatus?
    /// In the requested language, falling back to English.
    public var preferredCommonName: String?
    /// The language tag of `preferredCommonName` (`en` when it fell back to English).
    public var preferredCommonNameLang: String? = nil
    public var childCount: Int?
    /// Only where another taxon has the same scientific name (see `Homonyms`).
    public var disambiguation: Disambiguation? = nil
}

/// A name attached to a taxon.
public struct TaxonName: Codable, Sendable, Equatable {
    public var name: String
    public var lang: String
    public var type: NameType
    public var isPreferred: Bool
    /// Where a name merged from another source than the taxa's own came from (`name_sources`:
    /// "Mammal Diversity Database", "AviList", …); nil for the backbone's own names.
    public var source: String? = nil
}

/// A `key: value` trait, with its unit when numeric and the reference it comes from when linked.
public struct Trait: Codable, Sendable, Equatable, Hashable {
    public var key: String
    public var value: String
    /// The unit of a numeric value (`m`, `kg`); nil when categorical.
    public var unit: String?
    /// The reference the value was taken from (`traits.source_ref`).
    public var source: Reference?
    /// `key` in the language asked for (`Lebensraum`); `key` itself stays the English identifier.
    public var label: String? = nil
    /// Whether `label` and `value` are in the language asked for; false when the engine could not
    /// translate them and they come back as the source wrote them (in English).
    public var translated: Bool? = nil

    public init(key: String, value: String, unit: String? = nil, source: Reference? = nil) {
        self.key = key
        self.value = value
        self.unit = unit
        self.source = source
    }
}

/// A bibliographic reference.
public struct Reference: Codable, Sendable, Equatable, Hashable {
    public var citation: String
    public var url: String?
    public var type: String
}

/// Everything a species screen shows, in one response.
public struct TaxonDetail: Codable, Sendable {
    public var taxon: Taxon
    public var preferredCommonName: String?
    /// The language tag of `preferredCommonName`.
    public var preferredCommonNameLang: String?
    /// Root first, parent last.
    public var lineage: [Taxon]
    /// Common names by language tag.
    public var names: [String: [TaxonName]]
    public var synonyms: [TaxonName]
    public var traits: [Trait]
    public var references: [Reference]
    public var childCount: Int
    /// Present when a group above or a member below goes by the same common name (`SharedName`).
    public var sharedName: SharedName? = nil
    /// A text about the taxon in the requested language (falling back to English), with its
    /// attribution; nil when the database has none for it.
    public var description: TaxonDescription? = nil
}
