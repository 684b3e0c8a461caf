/// A taxon's id: a positive integer below 2^53, stable within a database.
public typealias TaxonID = Int64

/// A taxon as the protocol shows it. Optional fields are omitted when absent.
public struct Taxon: Codable, Hashable, Sendable, Identifiable {
    public var id: TaxonID
    public var parentId: TaxonID?
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
    public var preferredCommonNameLang: String?
    public var childCount: Int?
    /// Only where another taxon has the same scientific name.
    public var disambiguation: Disambiguation?

    public init(
        id: TaxonID, parentId: TaxonID? = nil, rank: Rank? = nil, scientificName: String, author: String? = nil, year: Int? = nil,
        status: TaxonStatus = .accepted, conservationStatus: ConservationStatus? = nil, preferredCommonName: String? = nil,
        preferredCommonNameLang: String? = nil, childCount: Int? = nil, disambiguation: Disambiguation? = nil
    ) {
        self.id = id
        self.parentId = parentId
        self.rank = rank
        self.scientificName = scientificName
        self.author = author
        self.year = year
        self.status = status
        self.conservationStatus = conservationStatus
        self.preferredCommonName = preferredCommonName
        self.preferredCommonNameLang = preferredCommonNameLang
        self.childCount = childCount
        self.disambiguation = disambiguation
    }
}

/// A name attached to a taxon.
public struct TaxonName: Codable, Hashable, Sendable {
    public var name: String
    public var lang: String
    public var type: NameType
    public var isPreferred: Bool
    /// Where a name merged from another source than the taxa's own came from (`name_sources`:
    /// "Mammal Diversity Database", "AviList", …); nil for the backbone's own names.
    public var source: String?

    public init(name: String, lang: String, type: NameType, isPreferred: Bool, source: String? = nil) {
        self.name = name
        self.lang = lang
        self.type = type
        self.isPreferred = isPreferred
        self.source = source
    }
}

/// A `key: value` trait, with its unit when numeric and the reference it comes from when linked.
public struct Trait: Codable, Hashable, Sendable {
    public var key: String
    public var value: String
    /// The unit of a numeric value (`m`, `kg`); nil when categorical.
    public var unit: String?
    /// The reference the value was taken from (`traits.source_ref`).
    public var source: Reference?
    /// `key` in the language asked for (`Lebensraum`); `key` itself stays the English identifier.
    public var label: String?
    /// Whether `label` and `value` are in the language asked for; false when the engine could not
    /// translate them and they come back as the source wrote them (in English).
    public var translated: Bool?

    public init(key: String, value: String, unit: String? = nil, source: Reference? = nil, label: String? = nil, translated: Bool? = nil) {
        self.key = key
        self.value = value
        self.unit = unit
        self.source = source
        self.label = label
        self.translated = translated
    }
}

/// A bibliographic reference.
public struct Reference: Codable, Hashable, Sendable {
    public var citation: String
    public var url: String?
    public var type: String

    public init(citation: String, url: String? = nil, type: String) {
        self.citation = citation
        self.url = url
        self.type = type
    }
}

/// Everything a species screen shows, in one response.
public struct TaxonDetail: Codable, Hashable, Sendable {
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
    public var sharedName: SharedName?
    /// A text about the taxon in the requested language (falling back to English), with its
    /// attribution; nil when the database has none for it.
    public var description: TaxonDescription?

    public init(
        taxon: Taxon, preferredCommonName: String? = nil, preferredCommonNameLang: String? = nil, lineage: [Taxon], names: [String: [TaxonName]],
        synonyms: [TaxonName], traits: [Trait], references: [Reference], childCount: Int, sharedName: SharedName? = nil,
        description: TaxonDescription? = nil
    ) {
        self.taxon = taxon
        self.preferredCommonName = preferredCommonName
        self.preferredCommonNameLang = preferredCommonNameLang
        self.lineage = lineage
        self.names = names
        self.synonyms = synonyms
        self.traits = traits
        self.references = references
        self.childCount = childCount
        self.sharedName = sharedName
        self.description = description
    }
}

extension Taxon {
    /// The id of Biota, the root of all life: the pseudo-taxon `compare/taxa` names as the
    /// common ancestor of taxa in different trees of a database. No taxon has it (ids start at 1).
    public static let rootOfLifeID: TaxonID = 0

    /// Whether this is Biota, the pseudo-taxon above every tree of the database.
    public var isRootOfLife: Bool { id == Self.rootOfLifeID }
}
