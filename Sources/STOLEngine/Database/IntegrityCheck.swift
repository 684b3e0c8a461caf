import Foundation
import GRDB
import STOLSupport

/// What SQLite's `integrity_check` checks, cut into pieces that two read-only connections share,
/// each on a thread of its own: for each table (the schema's own included), `quick_check(T)`
/// checks its b-trees and rows and `IndexContentCheck` that its indexes hold its rows (SQLite's
/// `integrity_check(T)` where that one does not model the table), and `PageAccounting` checks
/// that the b-trees cover the file once, which a check restricted to one table cannot.
///
/// One `integrity_check` looks every row up in every index, in rowid order; here each index is
/// read once in its own order, and two cores share the work (NCBI's database: 9.8 s as one
/// `integrity_check`, 3.3 s so, foreign keys included). The build checks the file it wrote with
/// it, and `database/import` a file it was given, with a seed drawn at random.
package final class IntegrityCheck: Sendable {
    /// The database to check: a path or an SQLite URI.
    package let path: String
    /// How each connection is opened (always read-only).
    package let configuration: Configuration
    /// The statement that sets each connection's page cache (`PRAGMA cache_size = …`).
    package let cache: String
    /// Keys the index digests (`IndexContentCheck.problems`).
    package let seed: UInt64
    /// Whether each table's values are checked too (`StoredValueCheck`: an import of a taxonomy
    /// database), in the pass over the table that the index check makes anyway.
    package let checksValues: Bool
    /// Where the passes over the indexes leave what `ANALYZE` would write (`PlannerStatistics`).
    package let statistics: PlannerStatistics?
    private let connections = Locked<[DatabaseQueue]>([])
    private let stopped = Locked(false)

    package init(path: String, configuration: Configuration = Configuration(), cache: String, seed: UInt64 = 0,
                 checksValues: Bool = false, statistics: PlannerStatistics? = nil) {
        self.path = path
        var configuration = configuration
        configuration.readonly = true
        self.configuration = configuration
        self.cache = cache
        self.seed = seed
        self.checksValues = checksValues
        self.statistics = statistics
    }

    /// The problems found, as sentences (none for a sound file). `beside`, if given, runs first on
    /// the second connection (the build checks foreign keys there, an import the tree and the
    /// full-text indexes). `progress` is told the share of tables checked (0…1) after each.
    /// Throws the first error a piece throws (SQLite's, for a file too damaged to read, or an
    /// interruption).
    package func problems(beside: (@Sendable (Database) throws -> Void)? = nil, progress: (@Sendable (Double) -> Void)? = nil) throws -> [String] {
        let tables = try read { db in try Self.tablesLargestFirst(db) }
        let next = Locked(0)
        let problems = Locked<[String]>([])
        let tablesDone = Locked(0)
        let failure = Locked<(any Error)?>(nil)
        let seed = self.seed
        // Runs `first`, then tables until none is left; a thrown error stops both workers.
        @Sendable func work(first: (@Sendable (Database) throws -> Void)?) {
            do {
                try read { db in
                    try first?(db)
                    while failure.withLock({ $0 }) == nil, !stopped.withLock({ $0 }) {
                        let table: String? = next.withLock { i in
                            defer { i += 1 }
                            return i < tables.count ? tables[i] : nil
                        }
                        guard let table else { break }
                        let found = try Self.tableProblems(db, table, seed: seed, statistics: statistics, checksValues: checksValues)
                        problems.withLock { $0 += found }
                        // Reported under the lock: two workers' reports then come in order.
                        tablesDone.withLock { done in
                            done += 1
                            progress?(Double(done) / Double(max(tables.count, 1)))
                        }
                    }
                }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            work(first: beside)
            finished.signal()
        }
        thread.name = "integrity check"
        thread.start()
        work(first: { db in
            let found = try PageAccounting.problems(db)
            problems.withLock { $0 += found }
        })
        finished.wait()
        if let error = failure.withLock({ $0 }) { throw error }
        if stopped.withLock({ $0 }) { throw CancellationError() }
        return problems.withLock { $0 }
    }

    /// Stops the check: the statements running are interrupted (`problems` throws), and no piece
    /// starts after them.
    package func interrupt() {
        stopped.withLock { $0 = true }
        connections.withLock { queues in for queue in queues { queue.interrupt() } }
    }

    /// What `integrity_check(table)` would report: `quick_check(table)`, then the indexes' content
    /// (`IndexContentCheck`, or SQLite's own check of a table that one does not model).
    /// With `statistics`, what `ANALYZE` would write for the table's indexes goes there (SQLite's
    /// own tables, which `ANALYZE` skips, are left out). With `checksValues`, the values of a sound
    /// table are checked (`StoredValueCheck`), in the index check's pass over it when it makes one.
    package static func tableProblems(_ db: Database, _ table: String, seed: UInt64 = 0, statistics: PlannerStatistics? = nil,
                                      checksValues: Bool = false) throws -> [String] {
        let name = table.quotedDatabaseIdentifier
        let quick = try String.fetchAll(db, sql: "PRAGMA quick_check(\(name))").filter { $0 != "ok" }
        guard quick.isEmpty else { return quick }
        let counting = table.lowercased().hasPrefix("sqlite_") ? nil : statistics
        var values = checksValues ? try StoredValueCheck.Pass(db, table: table) : nil
        var found: [String]
        if let indexProblems = try IndexContentCheck.problems(db, table: table, seed: seed, statistics: counting, values: &values) {
            found = indexProblems
        } else {
            counting?.markUncounted(table)
            found = try String.fetchAll(db, sql: "PRAGMA integrity_check(\(name))").filter { $0 != "ok" }
            // A pass the index check began and gave up is started again.
            if values?.complete == false { values = try StoredValueCheck.Pass(db, table: table) }
        }
        guard found.isEmpty, var values else { return found }
        if !values.complete { try values.scan(db) }
        return values.problems
    }

    /// Every ordinary table (FTS5's shadow tables included; virtual tables have no b-tree), by
    /// estimated cost: rows, from the statistics `ANALYZE` left, times the entries each row has
    /// in the table and its indexes. Tables without figures come last, ties by name, then the
    /// schema table.
    package static func tablesLargestFirst(_ db: Database) throws -> [String] {
        var rowsByTable: [String: Int] = [:]
        if try db.tableExists("sqlite_stat1") {
            // An imported file's statistics may hold anything: only integer counts of named tables count.
            for row in try Row.fetchAll(db, sql: "SELECT CAST(tbl AS TEXT), max(CAST(stat AS INTEGER)) FROM sqlite_stat1 GROUP BY tbl") {
                if let table = row[0] as String?, let rows = row[1] as Int64? { rowsByTable[table] = Int(clamping: max(rows, 0)) }
            }
        }
        let tables = try Row.fetchAll(db, sql: """
            SELECT CAST(t.name AS TEXT), (SELECT count(*) FROM sqlite_schema i WHERE i.type = 'index' AND i.tbl_name = t.name)
            FROM sqlite_schema t WHERE t.type = 'table' AND t.name IS NOT NULL AND t.sql NOT LIKE 'CREATE VIRTUAL TABLE%'
            """)
        let costs = tables.map { row -> (name: String, cost: Int) in
            let name: String = row[0], indexes: Int = row[1]
            let (cost, overflow) = (rowsByTable[name] ?? 0).multipliedReportingOverflow(by: 1 + indexes)
            return (name, overflow ? .max : cost)
        }
        let ordered: [String] = costs.sorted { $0.cost != $1.cost ? $0.cost > $1.cost : $0.name < $1.name }.map(\.name)
        return ordered + ["sqlite_schema"]
    }

    /// Runs `body` on a new connection to the database with the page cache `cache`, then closes
    /// it; `interrupt` reaches it meanwhile.
    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        connections.withLock { $0.append(queue) }
        defer {
            connections.withLock { $0.removeAll { $0 === queue } }
            try? queue.close()
        }
        if stopped.withLock({ $0 }) { throw CancellationError() }
        try queue.inDatabase { db in try db.execute(sql: cache) }
        return try queue.read(body)
    }
}
