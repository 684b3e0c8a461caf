import Foundation
import GRDB
import Logging
import STOLProtocol
import STOLSupport

/// The favourites: the file plus an in-memory copy of its ids, so `contains` and `count` never
/// read the table.
///
/// Several engines may share a data directory: before each call the service asks SQLite whether
/// another connection committed since it last looked (`PRAGMA data_version`, a header read), and
/// reloads its copy when one did; `takeOutsideChange()` then tells the caller to announce it.
///
/// The file is opened on first use, off the cooperative pool. Mutations run one at a time and
/// write the database first (one durable transaction); the set changes only after the commit, so
/// it never claims a change the file does not hold.
public actor FavoritesService {
    /// The outcome of a mutation: what changed and how many favourites there are now.
    public struct Change: Sendable, Equatable {
        public var changed: Bool
        public var count: Int
    }

    public struct Status: Sendable, Equatable {
        public var count: Int
        public var bytes: Int64
        public var recovery: FavoritesRecovery?
        /// Damaged copies moved aside (this run or earlier), until "Clear All" deletes them.
        public var movedAside: [String]
    }

    private struct Opened: Sendable {
        var store: FavoritesStore
        var recovery: FavoritesRecovery?
        var ids: Set<Int64>
        var version: Int
    }

    private let directory: URL
    private let logger: Logger
    private var store: FavoritesStore?
    private var opening: Task<Opened, any Error>?
    private var ids: Set<Int64> = []
    private var recovery: FavoritesRecovery?
    /// `data_version` when `ids` was last in step with the file.
    private var dataVersion = 0
    /// Set when a reload found another engine's change, until a caller takes it.
    private var outsideChange = false
    /// Mutations, reloads and closing run one at a time.
    private let gate = AsyncGate()

    /// `directory` is `<data-dir>/Favorites`; nothing is read or created until first use.
    public init(directory: URL, logger: Logger) {
        self.directory = directory
        self.logger = logger
    }

    // MARK: Reading

    /// The damaged file this run moved aside, opening an existing favourites file first (never
    /// creating one), so damage found at start-up is reported before any favourites call. A file
    /// that cannot be opened is left to the favourites methods to report.
    public func startUpRecovery() async -> FavoritesRecovery? {
        if store == nil {
            let file = directory.appendingPathComponent(FavoritesStore.fileName)
            let exists = (try? await OffPool.run { FileManager.default.fileExists(atPath: file.path) }) ?? false
            if exists { _ = try? await open() }
        }
        return recovery
    }

    public func contains(_ id: Int64) async throws -> Bool {
        try await openCaughtUp()
        return ids.contains(id)
    }

    public func contains(_ ids: [Int64]) async throws -> [Int64: Bool] {
        try await openCaughtUp()
        var found: [Int64: Bool] = [:]
        for id in ids { found[id] = self.ids.contains(id) }
        return found
    }

    public func count() async throws -> Int {
        try await openCaughtUp()
        return ids.count
    }

    /// The number of favourites when another engine changed them since the last call that
    /// looked, once; nil otherwise. Methods announce it with `favorites/didChange`.
    public func takeOutsideChange() -> Int? {
        guard outsideChange else { return nil }
        outsideChange = false
        return ids.count
    }

    /// For the watcher: when the file is open, brings the set in step with it and returns the
    /// count if another engine changed it since anyone last looked (`takeOutsideChange`). Never
    /// opens or creates the file.
    public func outsideChangeIfOpen() async throws -> Int? {
        guard let store else { return nil }
        try await catchUp(with: store)
        return takeOutsideChange()
    }

    /// Every favourite, most recent first.
    public func rows() async throws -> [FavoritesStore.Row] {
        let store = try await openCaughtUp()
        return try await storage { try await store.rows() }
    }

    public func storageBytes() async throws -> Int64 {
        let store = try await open()
        return try await storage { try await store.storageBytes() }
    }

    public func status() async throws -> Status {
        let store = try await openCaughtUp()
        let bytes = try await storage { try await store.storageBytes() }
        let directory = self.directory
        let movedAside = try await OffPool.run { FavoritesStore.movedAsideCopies(in: directory) }
        return Status(count: ids.count, bytes: bytes, recovery: recovery, movedAside: movedAside)
    }

    /// Closes the file (at exit); it is self-contained on disk after every change, so this only
    /// releases it. A later call opens it again.
    public func close() async {
        guard let store else { return }
        await gate.enter()
        defer { gate.leave() }
        try? store.close()
        self.store = nil
        opening = nil
    }

    // MARK: Mutations

    public func add(_ id: Int64) async throws -> Change {
        try await mutate { store in
            let added = try await store.add(id)
            return { set in if added { set.insert(id) }; return added }
        }
    }

    /// `changed` is true when at least one id was removed; `removed` says how many.
    public func remove(_ ids: [Int64]) async throws -> (removed: Int, change: Change) {
        var removedCount = 0
        let change = try await mutate { store in
            let removed = try await store.remove(ids)
            removedCount = removed.count
            if !removed.isEmpty { try? await OffPool.run { store.ensureReserve() } }
            return { set in set.subtract(removed); return !removed.isEmpty }
        }
        return (removedCount, change)
    }

    /// `changed` is always true; the new state is whether the id is in the set afterwards.
    public func toggle(_ id: Int64) async throws -> (isFavorite: Bool, change: Change) {
        var isFavorite = false
        let change = try await mutate { store in
            let now = try await store.toggle(id)
            isFavorite = now
            return { set in if now { set.insert(id) } else { set.remove(id) }; return true }
        }
        return (isFavorite, change)
    }

    /// "Clear All": removes every favourite, compacts the file and deletes the damaged copies
    /// moved aside earlier, so no favourite stays anywhere on disk.
    public func clear() async throws -> (removed: Int, change: Change) {
        var removedCount = 0
        let directory = self.directory
        let change = try await mutate { store in
            let removed = try await store.clear()
            removedCount = removed
            return { set in set.removeAll(); return removed > 0 }
        }
        _ = try await OffPool.run { try FavoritesStore.deleteMovedAsideCopies(in: directory) }
        recovery = nil
        if let store { try? await OffPool.run { store.ensureReserve() } }
        return (removedCount, change)
    }

    /// Runs `write` alone (after every earlier mutation), then applies the set update it returns.
    private func mutate(
        _ write: (FavoritesStore) async throws -> (inout Set<Int64>) -> Bool
    ) async throws -> Change {
        let store = try await open()
        await gate.enter()
        defer { gate.leave() }
        try await syncWithFile(store)
        let apply = try await storage { try await write(store) }
        let changed = apply(&ids)
        return Change(changed: changed, count: ids.count)
    }

    // MARK: Other engines

    /// The open store, with the in-memory set caught up with the file.
    @discardableResult
    private func openCaughtUp() async throws -> FavoritesStore {
        let store = try await open()
        try await catchUp(with: store)
        return store
    }

    /// Reloads the set when another connection committed since the last look; the reload waits
    /// for a mutation in progress, so an older snapshot never overwrites its change.
    private func catchUp(with store: FavoritesStore) async throws {
        let version = try await storage { try await store.dataVersion() }
        guard version != dataVersion else { return }
        await gate.enter()
        defer { gate.leave() }
        try await syncWithFile(store)
    }

    /// Reloads the set when another connection committed since the last look (the caller holds
    /// the mutation lock).
    private func syncWithFile(_ store: FavoritesStore) async throws {
        let version = try await storage { try await store.dataVersion() }
        guard version != dataVersion else { return }
        let snapshot = try await storage { try await store.currentSnapshot() }
        if snapshot.ids != ids { outsideChange = true }
        ids = snapshot.ids
        dataVersion = snapshot.version
    }

    // MARK: Opening and errors

    /// The open store, opening it (once, however many callers race) on first use.
    @discardableResult
    private func open() async throws -> FavoritesStore {
        if let store { return store }
        let task: Task<Opened, any Error>
        if let opening {
            task = opening
        } else {
            let directory = self.directory, logger = self.logger
            task = Task { try await Self.openOffPool(directory: directory, logger: logger) }
            opening = task
        }
        do {
            let opened = try await task.value
            if store == nil {
                store = opened.store
                ids = opened.ids
                dataVersion = opened.version
                recovery = opened.recovery
            }
            return store!
        } catch {
            // Try again on the next call (the folder may become writable).
            if opening == task { opening = nil }
            throw error
        }
    }

    /// Opening and warming block on file I/O, so they run off the cooperative pool.
    private static func openOffPool(directory: URL, logger: Logger) async throws -> Opened {
        try await OffPool.run { () throws -> Opened in
            let (store, recovery) = try FavoritesStore.open(directory: directory, logger: logger)
            do {
                let (ids, version) = try store.snapshot()
                return Opened(store: store, recovery: recovery, ids: ids, version: version)
            } catch {
                logger.error("cannot read favourites: \(error)")
                throw FavoritesError.unavailable("the favourites database cannot be read")
            }
        }
    }

    /// Runs a store operation; database failures become `favoritesUnavailable` (logged in full).
    private func storage<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as CancellationError {
            throw error
        } catch where Task.isCancelled {
            throw CancellationError()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            logger.error("favourites storage failed: \(error)")
            throw FavoritesError.diskFull
        } catch {
            logger.error("favourites storage failed: \(error)")
            throw FavoritesError.unavailable("the favourites database cannot be read or written")
        }
    }
}
