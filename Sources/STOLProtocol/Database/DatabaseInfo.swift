/// Which taxonomy database is active: the one that ships with the engine, or the reference
/// database the user imported.
public enum DatabaseSource: String, Codable, Hashable, Sendable {
    case bundled, reference
}

/// `database/info`'s answer (and `database/import`'s): the active database, its dataset, and
/// what start-up recovered.
public struct DatabaseInfo: Codable, Hashable, Sendable {
    /// What the dataset says about itself.
    public struct Dataset: Codable, Hashable, Sendable {
        public var name: String?
        public var version: String?
        public var license: String?
        public var attribution: String?
        public var buildDate: String?

        public init(name: String? = nil, version: String? = nil, license: String? = nil, attribution: String? = nil, buildDate: String? = nil) {
            self.name = name
            self.version = version
            self.license = license
            self.attribution = attribution
            self.buildDate = buildDate
        }
    }

    /// Damage a read found in the database.
    public struct Damage: Codable, Hashable, Sendable {
        public var detail: String
        /// The method that falls back to the bundled database (`database/deactivateReference`).
        public var fallback: String?

        public init(detail: String, fallback: String?) {
            self.detail = detail
            self.fallback = fallback
        }
    }

    public var source: DatabaseSource
    public var schemaVersion: Int
    public var taxaCount: Int
    public var sizeBytes: Int64
    public var dataset: Dataset
    /// Set when this run found the favourites file damaged and moved it aside.
    public var favoritesRecovery: FavoritesRecovery?
    /// Set when this run found `settings.json` damaged and moved it aside.
    public var settingsRecovery: SettingsRecovery?
    /// Set when a read found this database damaged; `database/deactivateReference` falls back.
    public var damage: Damage?
    /// Set when the setting chose the reference database but it could not be opened or read
    /// (at start, or when another engine installed it): the bundled database is served.
    public var referenceFallback: ReferenceFallback?

    public init(
        source: DatabaseSource, schemaVersion: Int, taxaCount: Int, sizeBytes: Int64, dataset: Dataset,
        favoritesRecovery: FavoritesRecovery? = nil, settingsRecovery: SettingsRecovery? = nil, damage: Damage? = nil,
        referenceFallback: ReferenceFallback? = nil
    ) {
        self.source = source
        self.schemaVersion = schemaVersion
        self.taxaCount = taxaCount
        self.sizeBytes = sizeBytes
        self.dataset = dataset
        self.favoritesRecovery = favoritesRecovery
        self.settingsRecovery = settingsRecovery
        self.damage = damage
        self.referenceFallback = referenceFallback
    }
}

/// One language a database has common names in.
public struct DatabaseLanguage: Codable, Hashable, Sendable {
    /// The BCP-47 tag as stored (`en`, `es`, `de`, …).
    public var lang: String
    /// How many common names are in it.
    public var names: Int
    /// How many taxa have at least one of them.
    public var taxa: Int

    public init(lang: String, names: Int, taxa: Int) {
        self.lang = lang
        self.names = names
        self.taxa = taxa
    }
}

/// A damaged favourites file that was moved aside when the engine opened it.
public struct FavoritesRecovery: Codable, Hashable, Sendable {
    /// The file's new name, without its directory.
    public var movedAsideTo: String
    /// When it was moved (UTC, ISO 8601).
    public var at: String

    public init(movedAsideTo: String, at: String) {
        self.movedAsideTo = movedAsideTo
        self.at = at
    }
}

/// A damaged `settings.json` found at start and moved aside.
public struct SettingsRecovery: Codable, Hashable, Sendable {
    /// The file's new name, without its directory (nil when it could not be moved).
    public var movedAsideTo: String?
    /// When it was found (UTC, ISO 8601).
    public var at: String
    /// What was wrong with it.
    public var reason: String

    public init(movedAsideTo: String?, at: String, reason: String) {
        self.movedAsideTo = movedAsideTo
        self.at = at
        self.reason = reason
    }
}

/// Why the bundled database is served although the setting chose the reference database: the
/// reference file could not be opened or read (at start, or when another engine on the data
/// directory installed it). `database/info` reports it as `referenceFallback` until a reference
/// database is active again; `database/deactivateReference` and a new import still work.
public struct ReferenceFallback: Codable, Hashable, Sendable {
    /// What was wrong with the file, as the open found it.
    public var detail: String
    /// When it was found (UTC, ISO 8601).
    public var at: String

    public init(detail: String, at: String) {
        self.detail = detail
        self.at = at
    }
}
