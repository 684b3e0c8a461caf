/// Everything the Settings → Storage screen shows, in one result.
public struct StorageReport: Codable, Hashable, Sendable {
    public struct Bundled: Codable, Hashable, Sendable {
        public var bytes: Int64
        public var deletable = false

        public init(bytes: Int64, deletable: Bool = false) {
            self.bytes = bytes
            self.deletable = deletable
        }
    }

    public struct Reference: Codable, Hashable, Sendable {
        public var bytes: Int64
        public var deletable = true
        public var available: Bool
        public var active: Bool

        public init(bytes: Int64, deletable: Bool = true, available: Bool, active: Bool) {
            self.bytes = bytes
            self.deletable = deletable
            self.available = available
            self.active = active
        }
    }

    public struct Favorites: Codable, Hashable, Sendable {
        /// The favourites folder on disk: the database and any damaged copy moved aside.
        public var bytes: Int64
        /// Damaged copies moved aside, until "Clear All" (`favorites/clear`) deletes them.
        public var movedAside: [File]
        /// Space held (zeros, no data) so that removing favourites works on a full disk.
        public var reservedBytes: Int64

        public init(bytes: Int64, movedAside: [File], reservedBytes: Int64) {
            self.bytes = bytes
            self.movedAside = movedAside
            self.reservedBytes = reservedBytes
        }
    }

    public struct File: Codable, Hashable, Sendable {
        public var name: String
        public var bytes: Int64

        public init(name: String, bytes: Int64) {
            self.name = name
            self.bytes = bytes
        }
    }

    public struct Diagnostics: Codable, Hashable, Sendable {
        public var bytes: Int64
        public var enabled: Bool
        public var deletable = true

        public init(bytes: Int64, enabled: Bool, deletable: Bool = true) {
            self.bytes = bytes
            self.enabled = enabled
            self.deletable = deletable
        }
    }

    /// Indexes built for a `--database` file that lacks the engine's extensions
    /// (`<data-dir>/Caches`): rebuilt when missing, so deleting them loses nothing.
    public struct Caches: Codable, Hashable, Sendable {
        public var bytes: Int64

        public init(bytes: Int64) {
            self.bytes = bytes
        }
    }

    public struct Volume: Codable, Hashable, Sendable {
        public var freeBytes: Int64
        public var totalBytes: Int64

        public init(freeBytes: Int64, totalBytes: Int64) {
            self.freeBytes = freeBytes
            self.totalBytes = totalBytes
        }
    }

    public var bundled: Bundled
    public var reference: Reference
    public var favorites: Favorites
    /// The bundled photographs first (never deletable), then the installed packs.
    public var mediaPacks: [MediaPack]
    public var diagnostics: Diagnostics
    public var caches: Caches
    public var volume: Volume
    /// Present when this run moved a damaged favourites file aside.
    public var favoritesRecovery: FavoritesRecovery?
    /// Present when this run moved a damaged `settings.json` aside.
    public var settingsRecovery: SettingsRecovery?

    public init(
        bundled: Bundled, reference: Reference, favorites: Favorites, mediaPacks: [MediaPack], diagnostics: Diagnostics, caches: Caches,
        volume: Volume, favoritesRecovery: FavoritesRecovery? = nil, settingsRecovery: SettingsRecovery? = nil
    ) {
        self.bundled = bundled
        self.reference = reference
        self.favorites = favorites
        self.mediaPacks = mediaPacks
        self.diagnostics = diagnostics
        self.caches = caches
        self.volume = volume
        self.favoritesRecovery = favoritesRecovery
        self.settingsRecovery = settingsRecovery
    }
}

/// `storage/report`: what the engine keeps on disk, by kind, and what may be deleted.
public struct StorageReportRequest: RPCRequest, Hashable {
    public typealias Response = StorageReport
    public static let method = "storage/report"
    public init() {}
}
