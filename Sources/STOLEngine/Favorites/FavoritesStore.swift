import Foundation
import GRDB
import GRDBSQLite
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import STOLProtocol

/// The favourites file, `<data-dir>/Favorites/favorites.sqlite`: the only user data the engine
/// keeps about favourites is a taxon id and the moment it was added.
///
/// The file is self-contained after every acknowledged change: it uses SQLite's rollback journal
/// (`journal_mode = DELETE`, `synchronous = FULL`), so a backup or copy of the one file holds
/// every favourite, and a write-ahead log left by an older engine is checked, replayed and
/// removed when the file is opened. `secure_delete` overwrites removed rows, and "Clear All"
/// also compacts the file, so nothing removed stays readable in it.
///
/// Opening is synchronous and touches the disk, so callers run `open` off the cooperative pool;
/// every later access goes through GRDB's async APIs.
public final class FavoritesStore: Sendable {
    /// The schema version this engine writes (`PRAGMA user_version`).
    public static let schemaVersion = 1
    public static let fileName = "favorites.sqlite"

    /// `migrations[v]` takes a database from user_version `v` to `v + 1`.
    static let migrations: [@Sendable (Database) throws -> Void] = [
        { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS favorites(
                    taxon_id INTEGER PRIMARY KEY,
                    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')));
                CREATE INDEX IF NOT EXISTS idx_favorites_created ON favorites(created_at);
                """)
        },
    ]

    /// A favourite as stored.
    public struct Row: Sendable, Equatable {
        public var taxonID: Int64
        /// UTC, millisecond precision: `2026-01-31T09:15:02.123Z`.
        public var createdAt: String
    }

    public let url: URL
    let queue: DatabaseQueue

    private init(url: URL, queue: DatabaseQueue) {
        self.url = url
        self.queue = queue
    }

    // MARK: Opening

    /// Opens (creating if needed) the favourites file in `directory`. A damaged file is moved aside,
    /// never deleted, and an empty database takes its place; the move is returned so it can be reported.
    public static func open(directory: URL, logger: Logger) throws(FavoritesError) -> (store: FavoritesStore, recovery: FavoritesRecovery?) {
        do {
            try OwnedPath.ensureDirectory(directory)
        } catch {
            logger.error("cannot use the favourites directory: \(error)")
            throw .unavailable("the favourites folder cannot be created or is not the engine's own")
        }
        let url = directory.appendingPathComponent(fileName)
        do {
            return (try openChecked(url, logger: logger), nil)
        } catch let damage as Damage {
            let now = Date()
            let movedTo = try moveAside(url, at: now, logger: logger)
            logger.warning("favourites database is damaged (\(damage.reason)); moved it aside to \(movedTo) and started an empty one")
            let recovery = FavoritesRecovery(movedAsideTo: movedTo, at: Timestamp.iso(now))
            do {
                return (try openChecked(url, logger: logger), recovery)
            } catch let error as FavoritesError {
                throw error
            } catch {
                logger.error("cannot create a fresh favourites database: \(error)")
                throw .unavailable("the favourites database cannot be created")
            }
        } catch let error as FavoritesError {
            throw error
        } catch {
            logger.error("cannot open the favourites database: \(error)")
            throw .unavailable("the favourites database cannot be opened")
        }
    }

    /// Why a file counts as damaged (it is then moved aside).
    struct Damage: Error {
        var reason: String
    }

    private static func isDamage(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT
    }

    /// Opens `url`, checks version and integrity, leaves the file in rollback-journal mode and
    /// migrates. Throws `Damage` for a file that is not a healthy favourites database, and leaves a
    /// newer file untouched. A missing file is made under another name and linked into place,
    /// so a zero-length `favorites.sqlite` is never the engine's own doing.
    static func openChecked(_ url: URL, logger: Logger) throws -> FavoritesStore {
        if OwnedPath.isSymbolicLink(url) { throw Damage(reason: "the favourites file is a symbolic link") }
        if !OwnedPath.exists(url) {
            try create(url)
        } else {
            try checkFiles(url)
            try check(url)
        }
        let queue = try connect(url, readonly: false)
        do {
            try queue.writeWithoutTransaction { db in
                // The file is known healthy now: leaving WAL mode may delete the log.
                setPersistentWAL(false, db)
                // From WAL (older engines) this checkpoints the log into the file and deletes it.
                if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "delete" {
                    guard try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE") == "delete" else {
                        throw DatabaseError(message: "could not leave WAL mode")
                    }
                }
            }
            try queue.inTransaction(.immediate) { db in
                let current = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                guard current < schemaVersion else { return .commit }
                for step in current..<schemaVersion { try migrations[step](db) }
                try db.execute(sql: "PRAGMA user_version = \(schemaVersion)")
                if current > 0 { logger.info("favourites database migrated from version \(current) to \(schemaVersion)") }
                return .commit
            }
            let columns = try queue.writeWithoutTransaction { db in
                try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('favorites') ORDER BY cid")
            }
            guard columns == ["taxon_id", "created_at"] else {
                throw Damage(reason: "unexpected favorites table: \(columns)")
            }
            let store = FavoritesStore(url: url, queue: queue)
            store.ensureReserve()
            return store
        } catch {
            try? queue.close()
            if isDamage(error) { throw Damage(reason: "\(error)") }
            throw error
        }
    }

    /// Makes an empty favourites database beside `url`, then links it into place.
    private static func create(_ url: URL) throws {
        let temp = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).new-\(UUID().uuidString)")
        defer { for extra in ["", "-journal"] { unlink(temp.path + extra) } }
        let queue = try connect(temp, readonly: false)
        try queue.inTransaction(.immediate) { db in
            for migration in migrations { try migration(db) }
            try db.execute(sql: "PRAGMA user_version = \(schemaVersion)")
            return .commit
        }
        try queue.close()
        // link, not rename: when another engine on the same data directory made the file first,
        // its file (which it may already be writing) is kept, never replaced by this empty one.
        if link(temp.path, url.path) == 0 || errno == EEXIST { return }
        // A file system without hard links.
        guard !OwnedPath.exists(url), rename(temp.path, url.path) == 0 else {
            if OwnedPath.exists(url) { return }
            throw FavoritesError.unavailable("cannot create the favourites database: \(String(cString: strerror(errno)))")
        }
    }

    /// Damage visible in the files themselves before SQLite reads them: a main file cut to zero
    /// length, or a write-ahead log that SQLite would silently cut short.
    private static func checkFiles(_ url: URL) throws {
        var info = stat()
        if lstat(url.path, &info) == 0, info.st_size == 0 {
            throw Damage(reason: "the favourites file is empty (cut to zero length)")
        }
        let wal = URL(fileURLWithPath: url.path + "-wal")
        guard !OwnedPath.isSymbolicLink(wal) else { throw Damage(reason: "the write-ahead log is a symbolic link") }
        if let bytes = FileManager.default.contents(atPath: wal.path), let damage = WriteAheadLogCheck.damage(in: Array(bytes)) {
            throw Damage(reason: damage)
        }
    }

    /// Version and integrity, on a read-only connection: it can neither write a newer engine's
    /// file nor checkpoint its WAL into it. A hot rollback journal (a crash mid-write) needs a
    /// writer to roll it back, so then the checks run on a read-write connection instead.
    private static func check(_ url: URL) throws {
        let hotJournal = StorageReport.fileBytes(URL(fileURLWithPath: url.path + "-journal")) > 0
        let queue = try connect(url, readonly: !hotJournal)
        defer { try? queue.close() }
        let version: Int, integrity: [String]
        do {
            (version, integrity) = try queue.read { db in
                (try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0, try String.fetchAll(db, sql: "PRAGMA integrity_check"))
            }
        } catch {
            if isDamage(error) { throw Damage(reason: "\(error)") }
            throw error
        }
        guard version <= schemaVersion else { throw FavoritesError.newerVersion(found: version, supported: schemaVersion) }
        guard integrity == ["ok"] else { throw Damage(reason: "integrity check: \(integrity.prefix(3).joined(separator: "; "))") }
    }

    private static func connect(_ url: URL, readonly: Bool) throws -> DatabaseQueue {
        var config = Configuration()
        config.label = "stol.favorites"
        config.readonly = readonly
        config.busyMode = .timeout(5)
        config.prepareDatabase { db in
            // Until the file is known to be healthy, closing must not delete its -wal. (First:
            // any statement may read the file and fail.)
            setPersistentWAL(true, db)
            // FULL: a change the client saw acknowledged survives a crash or power loss.
            // secure_delete: removed rows are overwritten, not left in free pages.
            try db.execute(sql: "PRAGMA synchronous = FULL; PRAGMA secure_delete = ON")
        }
        do {
            return try DatabaseQueue(path: url.path, configuration: config)
        } catch {
            if isDamage(error) { throw Damage(reason: "not a database") }
            throw error
        }
    }

    private static func setPersistentWAL(_ on: Bool, _ db: Database) {
        var flag: Int32 = on ? 1 : 0
        _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &flag)
    }

    /// The companion files SQLite may keep beside a database.
    static let companionSuffixes = ["", "-wal", "-shm", "-journal"]

    /// Renames `url` and its companion files to `<name>.corrupt-<UTC timestamp>[...]` (renaming a
    /// link moves the link, never what it points at); returns the new name of the main file.
    static func moveAside(_ url: URL, at date: Date, logger: Logger) throws(FavoritesError) -> String {
        let directory = url.deletingLastPathComponent()
        var name = "\(url.lastPathComponent)\(movedAsideMarker)\(Timestamp.compact(date))"
        var suffix = 1
        while (companionSuffixes.contains { OwnedPath.exists(directory.appendingPathComponent(name + $0)) }) {
            suffix += 1
            name = "\(url.lastPathComponent)\(movedAsideMarker)\(Timestamp.compact(date))-\(suffix)"
        }
        for extra in companionSuffixes {
            let source = URL(fileURLWithPath: url.path + extra)
            guard OwnedPath.exists(source) else { continue }
            guard rename(source.path, directory.appendingPathComponent(name + extra).path) == 0 else {
                logger.error("cannot move the damaged favourites file aside: \(String(cString: strerror(errno)))")
                throw .unavailable("the damaged favourites database cannot be moved aside")
            }
        }
        return name
    }

    static let movedAsideMarker = ".corrupt-"

    /// The damaged copies moved aside in `directory` (names, sorted): regular files only.
    static func movedAsideCopies(in directory: URL) -> [String] {
        let prefix = fileName + movedAsideMarker
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { name in
            var info = stat()
            return name.hasPrefix(prefix) && lstat(directory.appendingPathComponent(name).path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        }.sorted()
    }

    /// Deletes the damaged copies moved aside in `directory`; returns how many files went.
    static func deleteMovedAsideCopies(in directory: URL) throws(FavoritesError) -> Int {
        var deleted = 0
        for name in movedAsideCopies(in: directory) {
            guard unlink(directory.appendingPathComponent(name).path) == 0 else {
                throw .unavailable("a damaged copy of the favourites cannot be deleted: \(String(cString: strerror(errno)))")
            }
            deleted += 1
        }
        return deleted
    }

    // MARK: Reading

    /// Every favourite id (warms the service's set).
    public func allIDs() async throws -> Set<Int64> {
        try await queue.read { db in Set(try Int64.fetchAll(db, sql: "SELECT taxon_id FROM favorites")) }
    }

    /// SQLite's `data_version` on this store's connection: it changes when another connection
    /// (another engine on the same data directory) commits a change, never for this one's own.
    public func dataVersion() async throws -> Int {
        try await queue.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
    }

    /// Every id and the `data_version` they were read at, in one read.
    func snapshot() throws -> (ids: Set<Int64>, version: Int) {
        try queue.read(Self.snapshot)
    }

    /// `snapshot()` without blocking the caller's thread.
    func currentSnapshot() async throws -> (ids: Set<Int64>, version: Int) {
        try await queue.read(Self.snapshot)
    }

    private static func snapshot(_ db: Database) throws -> (ids: Set<Int64>, version: Int) {
        (Set(try Int64.fetchAll(db, sql: "SELECT taxon_id FROM favorites")), try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0)
    }

    /// Every favourite, most recent first; adds within the same millisecond by taxon id.
    public func rows() async throws -> [Row] {
        try await queue.read { db in
            try GRDB.Row.fetchAll(db, sql: "SELECT taxon_id, created_at FROM favorites ORDER BY created_at DESC, taxon_id ASC")
                .map { Row(taxonID: $0["taxon_id"], createdAt: $0["created_at"]) }
        }
    }

    /// page_count × page_size.
    public func storageBytes() async throws -> Int64 {
        try await queue.read { db in
            let pages = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let size = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            return pages * size
        }
    }

    // MARK: Writing (one transaction each)

    /// Returns whether the id was added (false when it was already there).
    public func add(_ id: Int64) async throws -> Bool {
        try await queue.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO favorites(taxon_id, created_at) VALUES (?, ?)", arguments: [id, try Self.nextTimestamp(db)])
            return db.changesCount > 0
        }
    }

    /// Now, or 1 ms after the newest favourite when the clock is behind it: `recent` order is the
    /// order of adding, whatever the wall clock does.
    static func nextTimestamp(_ db: Database) throws -> String {
        let now = Timestamp.iso(Date())
        guard let newest = try String.fetchOne(db, sql: "SELECT max(created_at) FROM favorites"), newest >= now else { return now }
        return Timestamp.iso(Timestamp.parse(newest).map { $0.addingTimeInterval(0.001) } ?? Date())
    }

    // MARK: Space for removing on a full disk

    /// A file of zeros kept beside the database, deleted when a removal finds the disk full, so
    /// that a user can always remove favourites (and so free space) through the engine.
    static let reserveName = ".space-reserve"
    static let reserveBytes = 1 << 20

    var reserveURL: URL { url.deletingLastPathComponent().appendingPathComponent(Self.reserveName) }

    /// Makes the reserve if it is missing and there is room.
    func ensureReserve() {
        SpaceReserve.ensure(reserveURL, bytes: Self.reserveBytes)
    }

    /// Runs a removal; when the disk is full, deletes the reserve and tries once more.
    private func freeingSpaceIfFull<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            guard OwnedPath.exists(reserveURL), unlink(reserveURL.path) == 0 else { throw error }
            return try await body()
        }
    }

    /// Returns the ids that were present and are now removed.
    public func remove(_ ids: [Int64]) async throws -> Set<Int64> {
        try await freeingSpaceIfFull { try await removeRows(ids) }
    }

    private func removeRows(_ ids: [Int64]) async throws -> Set<Int64> {
        try await queue.write { db in
            var removed = Set<Int64>()
            let statement = try db.makeStatement(sql: "DELETE FROM favorites WHERE taxon_id = ?")
            for id in Set(ids) {
                try statement.execute(arguments: [id])
                if db.changesCount > 0 { removed.insert(id) }
            }
            return removed
        }
    }

    /// Removes the id if present, adds it otherwise; returns whether it is a favourite now.
    public func toggle(_ id: Int64) async throws -> Bool {
        try await queue.write { db in
            try db.execute(sql: "DELETE FROM favorites WHERE taxon_id = ?", arguments: [id])
            if db.changesCount > 0 { return false }
            try db.execute(sql: "INSERT INTO favorites(taxon_id, created_at) VALUES (?, ?)", arguments: [id, try Self.nextTimestamp(db)])
            return true
        }
    }

    /// Removes everything and compacts the file (VACUUM), so no removed row stays in it; returns
    /// how many were removed.
    public func clear() async throws -> Int {
        let removed = try await freeingSpaceIfFull {
            try await queue.write { db in
                try db.execute(sql: "DELETE FROM favorites")
                return db.changesCount
            }
        }
        // On a full disk VACUUM may fail: the rows are gone and overwritten all the same
        // (secure_delete); the file is compacted on a later clear.
        try? await queue.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
        return removed
    }

    /// Closes the file; later calls fail.
    public func close() throws {
        try queue.close()
    }
}

/// Why favourites cannot be served (answered as in `FavoritesError+RPC.swift`).
public enum FavoritesError: Error, Sendable, Equatable {
    /// The file cannot be opened, created or written.
    case unavailable(String)
    /// The file was written by a newer engine; it is left untouched.
    case newerVersion(found: Int, supported: Int)
    /// The disk is full: adding needs space (removing still works).
    case diskFull
}

/// UTC timestamps for file names and reports.
enum Timestamp {
    /// `2026-01-31T09:15:02.123Z`, the format of `created_at`.
    static func iso(_ date: Date) -> String { format(date, "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'") }

    /// `20260131T091502.123Z`: no colons, so safe in a file name on every platform.
    static func compact(_ date: Date) -> String { format(date, "yyyyMMdd'T'HHmmss.SSS'Z'") }

    /// The date of an `iso` timestamp.
    static func parse(_ text: String) -> Date? { formatter("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").date(from: text) }

    private static func format(_ date: Date, _ pattern: String) -> String {
        formatter(pattern).string(from: date)
    }

    private static func formatter(_ pattern: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.dateFormat = pattern
        return formatter
    }
}
