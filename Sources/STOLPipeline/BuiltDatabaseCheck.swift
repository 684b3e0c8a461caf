import Foundation
import GRDB
import STOLSupport

/// The checks a build runs on the file it wrote: SQLite's `integrity_check`, and
/// `foreign_key_check`, since the build writes with enforcement off.
///
/// Both only read, so they run at once, each on its own connection and thread: the foreign keys
/// cost a quarter of the checking (NCBI: 8 of 36 s), and the second core was idle.
struct BuiltDatabaseCheck {
    /// The database file to check.
    var path: String
    /// The page cache of the integrity check's connection.
    var integrityCache: String
    /// The page cache of the foreign keys' connection: their look-ups land in the parent tables.
    var foreignKeyCache = "PRAGMA cache_size = -65536;"

    /// Throws the first failure: a damaged file, then dangling references.
    func run() throws {
        let path = self.path, foreignKeyCache = self.foreignKeyCache
        let dangling = Locked<Result<Int, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            let result = Result { try Self.read(path, cache: foreignKeyCache) { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count } }
            dangling.withLock { $0 = result }
            finished.signal()
        }
        thread.name = "foreign key check"
        thread.start()
        let integrity = Result { try Self.read(path, cache: integrityCache) { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") } }
        finished.wait()

        let problems = try integrity.get()
        guard problems == ["ok"] else { throw SourceIssue("integrity check failed: \(problems.prefix(5).joined(separator: "; "))", at: nil) }
        let count = try dangling.withLock { $0 }!.get()
        guard count == 0 else { throw SourceIssue("foreign key check failed: \(count) dangling references", at: nil) }
    }

    /// Runs `body` on a new connection to `path` with the page cache `cache`, then closes it.
    private static func read<T>(_ path: String, cache: String, _ body: (Database) throws -> T) throws -> T {
        var config = Configuration()
        config.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: config)
        defer { try? queue.close() }
        try queue.inDatabase { db in try db.execute(sql: cache) }
        return try queue.read(body)
    }
}
