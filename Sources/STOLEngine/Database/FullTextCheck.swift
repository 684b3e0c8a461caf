import Foundation
import GRDB
import STOLSupport

/// Checks the FTS5 indexes of a taxonomy database: their format version (`<table>_config`), which
/// FTS5 otherwise refuses only when a search reads it, and, on a copy the engine owns, FTS5's own
/// `integrity-check` command, which reads every index structure (and, for a table with content,
/// checks it against the content). The command needs a writable connection, so it runs on the
/// staged copy of an import inside a transaction that is rolled back; a `--database` file, which
/// is never written, gets the version check alone.
final class FullTextCheck: Sendable {
    /// The staged database (a path the engine owns).
    let path: String
    private let connection = Locked<DatabaseQueue?>(nil)
    private let stopped = Locked(false)

    init(path: String) {
        self.path = path
    }

    /// The FTS5 tables of `db` (virtual tables `USING fts5`).
    static func tables(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT CAST(name AS TEXT) FROM sqlite_master
            WHERE type = 'table' AND CAST(sql AS TEXT) LIKE 'CREATE VIRTUAL TABLE%' AND lower(CAST(sql AS TEXT)) LIKE '%using fts5(%'
            """)
    }

    /// The format version this SQLite's FTS5 writes and reads.
    static let supportedVersion: Int? = try? DatabaseQueue().write { db in
        try db.execute(sql: "CREATE VIRTUAL TABLE probe USING fts5(x)")
        return try Int.fetchOne(db, sql: "SELECT v FROM probe_config WHERE k = 'version'")
    }

    /// Each FTS5 table whose stored format version is not the one this FTS5 reads, as sentences.
    static func versionProblems(_ db: Database) throws -> [String] {
        guard let supported = supportedVersion else { return [] }
        var problems: [String] = []
        for table in try tables(db) where try db.tableExists("\(table)_config") {
            let stored = try Row.fetchAll(db, sql: "SELECT typeof(v), CAST(v AS TEXT) FROM \("\(table)_config".quotedDatabaseIdentifier) WHERE k = 'version'")
            let values = stored.map { "\($0[0] as String? ?? "") \($0[1] as String? ?? "")" }
            if values != ["integer \(supported)"] {
                problems.append("\(table)_config.v holds the FTS5 format version \(stored.isEmpty ? "(none)" : values.joined(separator: ", ")) where this engine reads \(supported) (\(table)_config key 'version')")
            }
        }
        return problems
    }

    /// The problems FTS5's `integrity-check` finds in each FTS5 table of the staged file, after the
    /// version check, as sentences. Throws when interrupted.
    func problems() throws -> [String] {
        var config = Configuration()
        config.label = "stol.import.fulltext"
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA trusted_schema = OFF; PRAGMA cell_size_check = ON;") }
        let queue = try DatabaseQueue(path: path, configuration: config)
        connection.withLock { $0 = queue }
        defer {
            connection.withLock { $0 = nil }
            try? queue.close()
        }
        if stopped.withLock({ $0 }) { throw CancellationError() }
        return try queue.writeWithoutTransaction { db in
            let versions = try Self.versionProblems(db)
            guard versions.isEmpty else { return versions }
            var problems: [String] = []
            for table in try Self.tables(db) {
                if stopped.withLock({ $0 }) { throw CancellationError() }
                let name = table.quotedDatabaseIdentifier
                do {
                    // The command writes nothing; the transaction makes sure of it.
                    try db.inTransaction {
                        try db.execute(sql: "INSERT INTO \(name)(\(name)) VALUES('integrity-check')")
                        return .rollback
                    }
                } catch let error as DatabaseError where error.resultCode != .SQLITE_INTERRUPT {
                    problems.append("\(table): FTS5 integrity-check: \(error.message ?? "\(error.resultCode)")")
                }
            }
            return problems
        }
    }

    /// Stops the check: its statement is interrupted, and no table starts after it.
    func interrupt() {
        stopped.withLock { $0 = true }
        connection.withLock { $0?.interrupt() }
    }
}
