import Foundation
import GRDB
import STOLSupport

/// The checks a build runs on the file it wrote: everything SQLite's `integrity_check` checks,
/// and every foreign key (`ForeignKeyCheck`), since the build writes with enforcement off.
///
/// They only read, so two connections on two threads share them. One `integrity_check` is cut
/// into pieces that together check the same: for each table (the schema's own included),
/// `quick_check(T)` checks its b-trees and rows and `IndexContentCheck` that its indexes hold its
/// rows (SQLite's `integrity_check(T)` where that one does not model the table), and
/// `PageAccounting` checks that the b-trees cover the file once, which a check restricted to one
/// table cannot. One thread starts with the pages, the other with the foreign keys; then each
/// takes the next table, largest first. On NCBI: 22.4 s as one `integrity_check` beside SQLite's
/// foreign-key check.
struct BuiltDatabaseCheck {
    /// One piece of the checking.
    enum Piece {
        /// Every page of the file in exactly one b-tree (`PageAccounting`).
        case pages
        /// Every table's references (`ForeignKeyCheck`).
        case foreignKeys
        /// What `integrity_check(table)` checks: the table and its indexes (`tableProblems`).
        case table(String)
    }

    /// The database file to check.
    var path: String
    /// The page cache of each connection.
    var cache: String

    /// Throws the first failure: a damaged file, then dangling references.
    func run() throws {
        let path = self.path, cache = self.cache
        let tables = try Self.read(path, cache: cache) { db in try Self.tablesLargestFirst(db) }
        let next = Locked(0)
        let problems = Locked<[String]>([])
        let dangling = Locked(0)
        let failure = Locked<(any Error)?>(nil)
        // Runs `first`, then tables until none is left; a thrown error stops both workers.
        @Sendable func work(first: Piece) {
            do {
                try Self.read(path, cache: cache) { db in
                    var piece: Piece? = first
                    while let current = piece, failure.withLock({ $0 }) == nil {
                        switch current {
                        case .foreignKeys:
                            let count = try ForeignKeyCheck.danglingReferences(db)
                            dangling.withLock { $0 += count }
                        case .pages:
                            let found = try PageAccounting.problems(db)
                            problems.withLock { $0 += found }
                        case .table(let name):
                            let found = try Self.tableProblems(db, name)
                            problems.withLock { $0 += found }
                        }
                        piece = next.withLock { i in
                            defer { i += 1 }
                            return i < tables.count ? .table(tables[i]) : nil
                        }
                    }
                }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            work(first: .foreignKeys)
            finished.signal()
        }
        thread.name = "database check"
        thread.start()
        work(first: .pages)
        finished.wait()

        if let error = failure.withLock({ $0 }) { throw error }
        let found = problems.withLock { $0 }
        guard found.isEmpty else { throw SourceIssue("integrity check failed: \(found.prefix(5).joined(separator: "; "))", at: nil) }
        let count = dangling.withLock { $0 }
        guard count == 0 else { throw SourceIssue("foreign key check failed: \(count) dangling references", at: nil) }
    }

    /// What `integrity_check(table)` would report: `quick_check(table)`, then the indexes' content
    /// (`IndexContentCheck`, or SQLite's own check of a table that one does not model).
    static func tableProblems(_ db: Database, _ table: String) throws -> [String] {
        let name = table.quotedDatabaseIdentifier
        let quick = try String.fetchAll(db, sql: "PRAGMA quick_check(\(name))").filter { $0 != "ok" }
        guard quick.isEmpty else { return quick }
        if let found = try IndexContentCheck.problems(db, table: table) { return found }
        return try String.fetchAll(db, sql: "PRAGMA integrity_check(\(name))").filter { $0 != "ok" }
    }

    /// Every ordinary table (FTS5's shadow tables included; virtual tables have no b-tree), by
    /// estimated cost: rows, from the statistics `ANALYZE` left, times the entries each row has
    /// in the table and its indexes. Tables without figures come last, ties by name, then the
    /// schema table.
    static func tablesLargestFirst(_ db: Database) throws -> [String] {
        var rowsByTable: [String: Int] = [:]
        if try db.tableExists("sqlite_stat1") {
            for row in try Row.fetchAll(db, sql: "SELECT tbl, max(CAST(stat AS INTEGER)) FROM sqlite_stat1 GROUP BY tbl") {
                rowsByTable[row[0]] = row[1]
            }
        }
        let tables = try Row.fetchAll(db, sql: """
            SELECT t.name, (SELECT count(*) FROM sqlite_schema i WHERE i.type = 'index' AND i.tbl_name = t.name)
            FROM sqlite_schema t WHERE t.type = 'table' AND t.sql NOT LIKE 'CREATE VIRTUAL TABLE%'
            """)
        let costs = tables.map { row -> (name: String, cost: Int) in
            let name: String = row[0], indexes: Int = row[1]
            return (name, (rowsByTable[name] ?? 0) * (1 + indexes))
        }
        let ordered: [String] = costs.sorted { $0.cost != $1.cost ? $0.cost > $1.cost : $0.name < $1.name }.map(\.name)
        return ordered + ["sqlite_schema"]
    }

    /// Runs `body` on a new read-only connection to `path` with the page cache `cache`, then closes it.
    private static func read<T>(_ path: String, cache: String, _ body: (Database) throws -> T) throws -> T {
        var config = Configuration()
        config.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: config)
        defer { try? queue.close() }
        try queue.inDatabase { db in try db.execute(sql: cache) }
        return try queue.read(body)
    }
}
