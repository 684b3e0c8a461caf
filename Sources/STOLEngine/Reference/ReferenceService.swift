import Foundation
import Logging
import STOLProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import STOLSupport

/// Imports, activates and deactivates the reference database in `<data-dir>/Databases`.
///
/// One import at a time; switches are refused while one runs, so the file under
/// `reference.sqlite` never changes between an import's checks and its rename. The bundled
/// database is never written, moved or deleted. `follow()` catches up with another engine's
/// import, switch or delete on the same data directory.
public actor ReferenceService {
    public nonisolated let dataDirectory: URL
    public nonisolated let importer: StolFileImporter
    private let provider: DatabaseProvider
    private let settings: EngineSettings
    private let logger: Logger
    private var slot = ImportSlot()
    /// The identity of the file the active reference database was opened from; nil while the
    /// bundled one is active. `follow()` compares it with what `reference.sqlite` is now.
    private var activeFile: FileIdentity?
    /// Held across each switch of the active database (this engine's or `follow()`'s), so that
    /// their steps never interleave at a suspension point.
    private let gate = AsyncGate()
    /// Why the bundled database is served although the setting chose the reference one
    /// (`database/info.referenceFallback`); nil once a reference database is active again or the
    /// user deactivated it.
    public private(set) var fallback: ReferenceFallback?

    public nonisolated var referenceURL: URL { Self.referenceURL(dataDirectory) }

    static func referenceURL(_ dataDirectory: URL) -> URL {
        dataDirectory.appendingPathComponent("Databases/reference.sqlite")
    }

    /// `activeFile` is the identity of the reference file `provider`'s active database was opened
    /// from (see `recover`), nil when the bundled one is active.
    init(dataDirectory: URL, scratch: ScratchDirectory, trustedKeys: [[UInt8]], limits: StolFileImporter.Limits,
         provider: DatabaseProvider, activeFile: FileIdentity?, fallback: ReferenceFallback? = nil, logger: Logger) {
        self.dataDirectory = dataDirectory
        self.activeFile = activeFile
        self.fallback = fallback
        self.importer = StolFileImporter(scratch: scratch, trustedKeys: trustedKeys, limits: limits)
        self.provider = provider
        self.settings = EngineSettings(dataDirectory: dataDirectory)
        self.logger = logger
    }

    /// What `recover` found: the reference database it opened, or why the bundled one is served.
    enum Recovered {
        case opened(TaxonomyDatabase, FileIdentity)
        case fellBack(ReferenceFallback)
        case notChosen

        var database: TaxonomyDatabase? {
            if case .opened(let database, _) = self { return database }
            return nil
        }

        var file: FileIdentity? {
            if case .opened(_, let file) = self { return file }
            return nil
        }

        var fallback: ReferenceFallback? {
            if case .fellBack(let fallback) = self { return fallback }
            return nil
        }
    }

    /// At engine start: removes the scratch files of interrupted imports (only the engine's own,
    /// see `ScratchDirectory.removeAbandoned`) and opens the reference database if the setting
    /// says it is active, with the identity of the file it opened. A missing, corrupt or
    /// incompatible one (a value of the wrong type in its `dataset_info` too) resets the setting,
    /// and the engine starts on the bundled database.
    static func recover(dataDirectory: URL, logger: Logger) -> Recovered {
        for name in ScratchDirectory.removeAbandoned(in: dataDirectory) {
            logger.info("removed a leftover temporary file of an interrupted import: \(name)")
        }
        let settings = EngineSettings(dataDirectory: dataDirectory)
        guard settings.referenceActive else { return .notChosen }
        let url = referenceURL(dataDirectory)
        let reason: String
        if let file = FileIdentity.of(url) {
            do {
                let database = try TaxonomyDatabase(url: url, source: .reference)
                logger.info("reference database: \(database.taxaCount) taxa, schema \(database.schemaVersion)")
                return .opened(database, file)
            } catch {
                reason = "cannot be used (\(error))"
            }
        } else {
            reason = "is missing"
        }
        logger.warning("the reference database \(reason); falling back to the bundled database")
        do { try settings.setReferenceActive(false) } catch { logger.error("cannot reset \(settings.url.path): \(error)") }
        return .fellBack(ReferenceFallback(detail: "the reference database \(reason)"))
    }

    public var referenceAvailable: Bool { FileManager.default.fileExists(atPath: referenceURL.path) }

    /// The cross-process lock for an import, switch or delete; refused at once when another
    /// engine on the same data directory holds it.
    private func lockDataDirectory() throws(ReferenceError) -> DataDirectoryLock {
        let held: DataDirectoryLock?
        do { held = try DataDirectoryLock.tryAcquire(in: dataDirectory) } catch { throw .importFailed("\(error)") }
        guard let held else { throw .busyInAnotherProcess }
        return held
    }

    /// Whether an import is running (a signal or shutdown then cancels it).
    public var importRunning: Bool { slot.isTaken }

    /// Stops the running import at its next chunk; false when none is running.
    public func cancelImport() -> Bool {
        slot.cancel()
    }

    /// The whole import flow; returns the database now active.
    public func importDatabase(from source: URL, report: @escaping StolFileImporter.Report) async throws(ReferenceError) -> TaxonomyDatabase {
        guard !slot.isTaken else { throw .importAlreadyInProgress }
        let held = try lockDataDirectory()
        defer { withExtendedLifetime(held) {} }
        guard let job = slot.take() else { throw .importAlreadyInProgress }
        defer { slot.release() }
        let staged = try await importer.stageUncancelled(source, job: job, report: report)
        report(0.92, ImportStep.installing.rawValue)
        await gate.enter()
        defer { gate.leave() }
        let database = try install(staged)
        report(0.97, ImportStep.activating.rawValue)
        await provider.activate(database)
        logger.info("imported reference database: \(database.taxaCount) taxa, schema \(database.schemaVersion), signed by \(Hex.encode(staged.signedBy))")
        report(1, ImportStep.done.rawValue)
        return database
    }

    /// Renames the staged database over `reference.sqlite`, keeping a hard link to the old one
    /// until the new one has opened and the setting is saved, so any failure can put it back.
    private func install(_ staged: StolFileImporter.Staged) throws(ReferenceError) -> TaxonomyDatabase {
        let fm = FileManager.default
        let reference = referenceURL
        defer {
            unlink(staged.stolCopy.path)
            unlink(staged.database.path)
        }
        let backup: URL
        do {
            backup = try importer.scratch.url().appendingPathComponent("backup-\(UUID().uuidString).sqlite")
            try OwnedPath.ensureDirectory(reference.deletingLastPathComponent())
        } catch {
            throw .importFailed("\(error)")
        }
        let hadOld = fm.fileExists(atPath: reference.path)
        if hadOld, link(reference.path, backup.path) != 0 {
            throw .importFailed("cannot keep the current reference database aside: \(String(cString: strerror(errno)))")
        }
        func restore() {
            if hadOld { rename(backup.path, reference.path) } else { unlink(reference.path) }
        }
        guard rename(staged.database.path, reference.path) == 0 else {
            let detail = String(cString: strerror(errno))
            unlink(backup.path)
            throw .importFailed("cannot move the database into place: \(detail)")
        }
        let installed = FileIdentity.of(reference)
        let database: TaxonomyDatabase
        do {
            database = try TaxonomyDatabase(url: reference, source: .reference)
        } catch {
            restore()
            throw ReferenceError(opening: error)
        }
        do { try settings.setReferenceActive(true) } catch {
            restore()
            throw .importFailed("cannot save \(settings.url.lastPathComponent): \(error)")
        }
        unlink(backup.path)
        activeFile = installed
        fallback = nil
        return database
    }

    /// Makes the imported reference database active; `switched` is false when it already was.
    public func activate() async throws(ReferenceError) -> (database: TaxonomyDatabase, switched: Bool) {
        try await switching { current throws(ReferenceError) in try await activate(replacing: current) }
    }

    private func activate(replacing current: TaxonomyDatabase) async throws(ReferenceError) -> (database: TaxonomyDatabase, switched: Bool) {
        if current.source == .reference { return (current, false) }
        guard let file = FileIdentity.of(referenceURL) else { throw .referenceMissing }
        let database: TaxonomyDatabase
        do {
            database = try TaxonomyDatabase(url: referenceURL, source: .reference)
        } catch {
            throw ReferenceError(opening: error)
        }
        do { try settings.setReferenceActive(true) } catch { throw .settingsUnwritable("\(error)") }
        activeFile = file
        fallback = nil
        await provider.activate(database)
        return (database, true)
    }

    /// Makes the bundled database active and, with `delete`, removes the reference file (requests
    /// still reading it keep their open connection until they finish).
    public func deactivate(delete: Bool) async throws(ReferenceError) -> (database: TaxonomyDatabase, switched: Bool) {
        try await switching { current throws(ReferenceError) in try await deactivate(replacing: current, delete: delete) }
    }

    /// Runs a switch of the active database: refused while an import runs, then with the data
    /// directory's lock held and the gate passed; `body` gets the database active before it.
    private func switching<T>(_ body: (TaxonomyDatabase) async throws(ReferenceError) -> T) async throws(ReferenceError) -> T {
        guard !slot.isTaken else { throw .importAlreadyInProgress }
        let held = try lockDataDirectory()
        defer { withExtendedLifetime(held) {} }
        await gate.enter()
        defer { gate.leave() }
        return try await body(await provider.activeUnchecked())
    }

    private func deactivate(replacing current: TaxonomyDatabase, delete: Bool) async throws(ReferenceError) -> (database: TaxonomyDatabase, switched: Bool) {
        if current.source == .reference || settings.referenceActive {
            do { try settings.setReferenceActive(false) } catch { throw .settingsUnwritable("\(error)") }
        }
        activeFile = nil
        fallback = nil
        await provider.activateBundled()
        // unlink, never a recursive removal: a link put in its place is removed, not followed.
        if delete, OwnedPath.exists(referenceURL), unlink(referenceURL.path) != 0 {
            throw .deleteFailed("\(referenceURL.lastPathComponent): \(String(cString: strerror(errno)))")
        }
        return (provider.bundled, current.source == .reference)
    }

    /// Catches up with another engine's import, switch or delete: the setting and the file decide
    /// which database is active, as at start, and a reference database whose file was replaced
    /// is reopened. Returns the database now active when it changed, nil when nothing did. Never
    /// writes: the engine that made the change owns the setting.
    public func follow() async -> TaxonomyDatabase? {
        await gate.enter()
        defer { gate.leave() }
        let current = await provider.activeUnchecked()
        let file = FileIdentity.of(referenceURL)
        let wanted = file != nil && settings.referenceActive
        if wanted, current.source == .reference, file == activeFile { return nil }
        if !wanted, current.source == .bundled { return nil }
        if wanted {
            let url = referenceURL
            do {
                let database = try await OffPool.run { try TaxonomyDatabase(url: url, source: .reference) }
                activeFile = file
                fallback = nil
                await provider.activate(database)
                logger.info("another engine changed the reference database; now serving it: \(database.taxaCount) taxa, schema \(database.schemaVersion)")
                return database
            } catch {
                logger.warning("the reference database another engine installed cannot be used (\(error)); serving the bundled database")
                fallback = ReferenceFallback(detail: "the reference database another engine installed cannot be used (\(error))")
                if current.source == .bundled { return nil }
            }
        } else {
            logger.info("another engine deactivated or deleted the reference database; serving the bundled database")
        }
        activeFile = nil
        await provider.activateBundled()
        return provider.bundled
    }
}
