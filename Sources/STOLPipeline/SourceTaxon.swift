import STOLEngine
import STOLProtocol
/// One taxon as an importer read it, before ids are assigned and sources are merged.
public struct SourceTaxon: Sendable, Equatable {
    /// Identity used to merge sources and resolve parents (see `SourceTaxon.key(kingdom:rank:name:)`).
    public var key: String
    public var parentKey: String?
    /// Nil for unranked taxa.
    public var rank: Rank?
    public var scientificName: String
    public var author: String?
    public var year: Int?
    public var status: TaxonStatus = .accepted
    public var conservation: ConservationStatus?
    public var names: [SourceName] = []
    public var traits: [SourceTrait] = []
    public var references: [SourceReference] = []
    /// Texts about the taxon, at most one per language (`descriptions`).
    public var descriptions: [SourceDescription] = []
    /// An id the source fixes (generic tables, NCBI); otherwise one is derived from `key`.
    public var fixedID: Int64?
    /// Where the taxon was read, for error messages.
    public var origin: SourceLocation?

    public init(key: String, parentKey: String?, rank: Rank?, scientificName: String) {
        self.key = key
        self.parentKey = parentKey
        self.rank = rank
        self.scientificName = scientificName
    }

    /// The merge key for a ranked taxon: the same rank and name in the same kingdom are the same taxon.
    public static func key(kingdom: String?, rank: Rank?, name: String) -> String {
        "\(kingdom ?? "")|\(rank?.rawValue ?? "unranked")|\(name)"
    }
}

/// A common name or synonym.
public struct SourceName: Sendable, Equatable, Hashable {
    public var name: String
    /// BCP-47 tag; `la` for scientific synonyms.
    public var lang: String
    public var type: NameType
    public var isPreferred: Bool
    /// The source a name merged into the backbone came from (`name_sources`); nil for a name of
    /// the taxon's own source.
    public var source: String?

    public init(_ name: String, lang: String, type: NameType, isPreferred: Bool = false, source: String? = nil) {
        self.name = name
        self.lang = lang
        self.type = type
        self.isPreferred = isPreferred
        self.source = source
    }
}

/// A text about a taxon in one language, with its attribution (`descriptions`).
public struct SourceDescription: Sendable, Equatable, Hashable {
    public var lang: String
    public var text: String
    /// The title of the source: a Wikipedia article's, the dataset's name.
    public var sourceTitle: String?
    public var sourceURL: String?
    public var license: String?
    /// Who published it: "English Wikipedia", the dataset's name.
    public var sourceName: String?

    public init(lang: String, text: String, sourceTitle: String? = nil, sourceURL: String? = nil, license: String? = nil, sourceName: String? = nil) {
        self.lang = lang
        self.text = text
        self.sourceTitle = sourceTitle
        self.sourceURL = sourceURL
        self.license = license
        self.sourceName = sourceName
    }
}

/// A `key = value` trait such as `diet = carnivore`.
public struct SourceTrait: Sendable, Equatable, Hashable {
    public var key: String
    public var value: String

    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
}

/// A bibliographic reference.
public struct SourceReference: Sendable, Equatable, Hashable {
    public var citation: String
    public var url: String?
    public var type: String

    public init(_ citation: String, url: String? = nil, type: String = "taxonomy") {
        self.citation = citation
        self.url = url
        self.type = type
    }
}

/// A file and line, for messages about bad source rows.
public struct SourceLocation: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int

    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    public var description: String { "\(file):\(line)" }
}

/// A problem with a source row. Reported with its location; the row is skipped (or repaired,
/// when `rows` is 0) or the build fails.
public struct SourceIssue: Error, Sendable, Equatable, CustomStringConvertible {
    public var location: SourceLocation?
    public var message: String
    /// What kind of problem it is, for the build's summary.
    public var kind: Kind
    /// How many source rows it left out: 1 for a skipped row, 0 for a break that was repaired,
    /// more for one issue that stands for many rows (a subtree dropped with its root).
    public var rows: Int

    public init(_ message: String, at location: SourceLocation?, kind: Kind = .badRow, rows: Int = 1) {
        self.message = message
        self.location = location
        self.kind = kind
        self.rows = rows
    }

    public var description: String { location.map { "\($0): \(message)" } ?? message }
}

/// What an importer produced: taxa in source order, plus the rows it had to skip.
public struct ImportResult: Sendable {
    public var taxa: [SourceTaxon] = []
    /// The issues the importer met: rows it skipped and breaks it repaired.
    public var skipped = SourceIssues()
    /// Rows read from the source's tables of taxa, synonyms and names (0 when the importer does
    /// not count them: the build then takes its taxa and skipped rows instead).
    public var rowsRead = 0
    /// Files read, for the dataset's credits.
    public var sourceFiles: [String] = []
    /// Required attributions of the sources (CC BY datasets must be credited).
    public var credits: [String] = []

    public init() {}
}
