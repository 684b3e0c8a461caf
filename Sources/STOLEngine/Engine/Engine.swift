import Foundation
import Logging
import STOLProtocol
import STOLSupport

/// The engine: every service, wired together. `methods()` (in `Methods/`) exposes them.
public final class Engine: Sendable {
    /// Where things are and how the engine should behave.
    public struct Configuration: Sendable {
        /// The user's data directory (favourites, settings, imported databases).
        public var dataDirectory: URL
        /// A database to serve instead of the embedded one (benchmarks, large datasets).
        public var bundledDatabase: URL?
        /// Above this many taxa, compare answers from SQL instead of an in-memory tree.
        public var lcaMaxNodes: Int = 5_000_000
        /// Public keys trusted for `.stol` files besides the compiled-in release key (`--trusted-key`).
        public var extraTrustedKeys: [[UInt8]] = []
        /// Size limits of `database/import` (tests lower them).
        public var importLimits = StolFileImporter.Limits()
        /// The diagnostics file sink the process's log handler writes to; one is made when absent.
        public var diagnostics: DiagnosticsLog?

        public init(dataDirectory: URL, bundledDatabase: URL? = nil) {
            self.dataDirectory = dataDirectory
            self.bundledDatabase = bundledDatabase
        }
    }

    public let configuration: Configuration
    public let databases: DatabaseProvider
    /// The user's favourites (`<data-dir>/Favorites`), opened on first use.
    public let favorites: FavoritesService
    /// The in-memory tree of the active database, for compare.
    public let lca: LCAService
    let compare: CompareService
    /// The imported reference database (`<data-dir>/Databases/reference.sqlite`).
    public let reference: ReferenceService
    /// Installed media packs (`<data-dir>/Media`).
    public let media: MediaService
    /// The opt-in diagnostics log (`<data-dir>/Diagnostics`).
    public let diagnostics: DiagnosticsLog
    /// Set when `settings.json` was damaged at start and moved aside.
    public let settingsRecovery: SettingsRecovery?
    /// The engine's own folder for staged imports (`<data-dir>/.stol-tmp-XXXXXX`).
    public let scratch: ScratchDirectory
    let logger: Logger
    /// Notices other engines' changes to the data directory (see Engine+SharedState.swift).
    let watch: DataDirectoryWatch
    /// Where events go once `watchSharedState` was called.
    let events = Locked<(@Sendable (EngineEvent) -> Void)?>(nil)
    /// The task `watchSharedState` started.
    let watcher = Locked<Task<Void, Never>?>(nil)

    /// Starts the engine. The data directory is resolved once here: a path through symbolic links
    /// is replaced by the real one, and inside it the engine never follows a link again.
    public init(configuration: Configuration, logger: Logger) throws {
        var configuration = configuration
        configuration.dataDirectory = OwnedPath.resolved(configuration.dataDirectory)
        self.configuration = configuration
        self.logger = logger
        // Before anything reads the settings: a damaged file is reported, never silently dropped.
        self.settingsRecovery = EngineSettings(dataDirectory: configuration.dataDirectory).recoverIfDamaged(logger: logger)
        // First, so that start-up lines reach the diagnostics file when the user opted in.
        let diagnostics = configuration.diagnostics ?? DiagnosticsLog()
        diagnostics.configure(
            directory: configuration.dataDirectory.appendingPathComponent("Diagnostics"),
            redactor: Redactor(dataDirectory: configuration.dataDirectory),
            enabled: EngineSettings(dataDirectory: configuration.dataDirectory).diagnosticsEnabled)
        self.diagnostics = diagnostics
        let scratch = ScratchDirectory(in: configuration.dataDirectory)
        self.scratch = scratch
        let bundledURL = try configuration.bundledDatabase ?? Self.embeddedDatabaseURL()
        // A `--database` file with only the specification's tables gets its search extensions
        // built into a cache in the data directory; the file itself is never written.
        var cache = ExtensionCache(dataDirectory: configuration.dataDirectory, scratch: scratch)
        cache.onBuild = { logger.info("\($0)") }
        // A `--database` file is checked as an import would check it (the embedded one is the
        // engine's own, built from `dataset/default` and checked by its tests).
        let bundled = try TaxonomyDatabase(url: bundledURL, source: .bundled, extensionCache: cache, checksContent: configuration.bundledDatabase != nil)
        let recovered = ReferenceService.recover(dataDirectory: configuration.dataDirectory, logger: logger)
        self.databases = DatabaseProvider(bundled: bundled, active: recovered.database)
        let releaseKey = (try? Signing.parsePublicKey(Signing.releasePublicKeyHex)).map { [$0] } ?? []
        self.reference = ReferenceService(
            dataDirectory: configuration.dataDirectory, scratch: scratch, trustedKeys: releaseKey + configuration.extraTrustedKeys,
            limits: configuration.importLimits, provider: databases, activeFile: recovered.file, fallback: recovered.fallback, logger: logger)
        self.media = MediaService(
            dataDirectory: configuration.dataDirectory, scratch: scratch, trustedKeys: releaseKey + configuration.extraTrustedKeys,
            limits: configuration.importLimits, logger: logger)
        self.favorites = FavoritesService(directory: configuration.dataDirectory.appendingPathComponent("Favorites"), logger: logger)
        self.lca = LCAService(provider: databases, maxNodes: configuration.lcaMaxNodes, logger: logger)
        self.compare = CompareService(databases: databases, lca: lca)
        self.watch = DataDirectoryWatch(dataDirectory: configuration.dataDirectory)
        Task { [lca] in await lca.prepare(recovered.database ?? bundled) }
        // No request reads a database another engine switched away from or deleted.
        databases.setBeforeServing(self)
        logger.info("bundled database: \(bundled.taxaCount) taxa, schema \(bundled.schemaVersion), dataset \(bundled.datasetInfo["name"] ?? "unnamed")")
    }

    /// The database shipped inside the engine (Resources/default.sqlite).
    public static func embeddedDatabaseURL() throws -> URL {
        guard let url = Bundle.module.url(forResource: "default", withExtension: "sqlite", subdirectory: "Resources") else {
            throw DatabaseOpenError.unreadable("the embedded default database is missing from the engine's resources")
        }
        return url
    }

    /// The taxonomy queries over the active database.
    func store() async -> TaxonomyStore {
        TaxonomyStore(database: await databases.current())
    }
}
