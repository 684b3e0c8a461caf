import GRDB
import GRDBSQLite

/// Counts the references of a database that point at no row, as `PRAGMA foreign_key_check`
/// counts them (one per row and reference), for the check of a finished build.
///
/// A reference from one integer column to an integer key is looked up in that key's values, read
/// once into memory, while the referring table is read in order. SQLite's own check searches the
/// parent's b-tree once per reference, and NCBI's scattered tax ids sent its 23 million searches
/// all over `taxa` (8.3 s; Open Tree's 53 million took 12.4 s). Every reference of the schema is
/// of that kind. A table with any other reference (several columns, a key of another type) or
/// holding a value that is not an integer is left to SQLite's check, whose rules then apply.
enum ForeignKeyCheck {
    /// The number of dangling references in every ordinary table of `db`.
    static func danglingReferences(_ db: Database) throws -> Int {
        var keys: [String: Keys] = [:]
        var dangling = 0
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'")
        for table in tables {
            let references = try Row.fetchAll(db, sql: "SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?) ORDER BY id, seq", arguments: [table])
            guard !references.isEmpty else { continue }
            if let count = try countInMemory(db, table: table, references: references, keys: &keys) {
                dangling += count
            } else {
                dangling += try Row.fetchAll(db, sql: "PRAGMA foreign_key_check(\(table.quotedDatabaseIdentifier))").count
            }
        }
        return dangling
    }

    /// The distinct integer values of one key column, for look-ups.
    struct Keys {
        private var bits: [UInt64] = []
        private var low: Int64 = 0
        private var sorted: [Int64] = []

        /// Values spread over at most this many integers go in a bit set; others in a sorted list.
        static let denseSpan: Int64 = 1 << 28

        init(_ values: [Int64]) {
            guard let least = values.min(), let most = values.max() else { return }
            if most &- least >= 0, most - least < Self.denseSpan {
                low = least
                bits = [UInt64](repeating: 0, count: Int((most - least) >> 6) + 1)
                for v in values { bits[Int((v - least) >> 6)] |= 1 << UInt64((v - least) & 63) }
            } else {
                sorted = values.sorted()
            }
        }

        func contains(_ value: Int64) -> Bool {
            if !bits.isEmpty {
                guard value >= low else { return false }
                let (offset, overflow) = value.subtractingReportingOverflow(low)
                guard !overflow, offset >> 6 < Int64(bits.count) else { return false }
                return bits[Int(offset >> 6)] & (1 << UInt64(offset & 63)) != 0
            }
            var lo = 0, hi = sorted.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if sorted[mid] < value { lo = mid + 1 } else { hi = mid }
            }
            return lo < sorted.count && sorted[lo] == value
        }
    }

    /// Counts `table`'s dangling references in memory; nil when SQLite's check must do it.
    private static func countInMemory(_ db: Database, table: String, references: [Row], keys: inout [String: Keys]) throws -> Int? {
        var columns: [String] = []
        var parents: [Keys] = []
        var ids: Set<Int64> = []
        for reference in references {
            let id: Int64 = reference["id"]
            // A second row of one id: a reference of several columns.
            guard ids.insert(id).inserted else { return nil }
            let parent: String = reference["table"], from: String = reference["from"]
            guard try isInteger(db, table: table, column: from),
                  let key = try integerKey(db, parent: parent, column: reference["to"]) else { return nil }
            let name = parent + "\u{0}" + key
            if keys[name] == nil {
                guard let values = try integerValues(db, table: parent, column: key) else { return nil }
                keys[name] = Keys(values)
            }
            columns.append(from)
            parents.append(keys[name]!)
        }
        let list = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let statement = try db.makeStatement(sql: "SELECT \(list) FROM \(table.quotedDatabaseIdentifier)")
        let handle = statement.sqliteStatement
        var dangling = 0
        while try db.nextRow(handle) {
            for (i, keys) in parents.enumerated() {
                switch sqlite3_column_type(handle, Int32(i)) {
                case SQLITE_NULL: continue
                case SQLITE_INTEGER: if !keys.contains(sqlite3_column_int64(handle, Int32(i))) { dangling += 1 }
                default: return nil
                }
            }
        }
        return dangling
    }

    /// Whether `column` of `table` has integer affinity (its declared type holds `INT`).
    private static func isInteger(_ db: Database, table: String, column: String) throws -> Bool {
        let type = try String.fetchOne(db, sql: "SELECT type FROM pragma_table_info(?) WHERE name = ? COLLATE NOCASE", arguments: [table, column])
        return type?.uppercased().contains("INT") == true
    }

    /// The parent key column a reference names (`column`, or the parent's primary key), if it is
    /// one integer column.
    private static func integerKey(_ db: Database, parent: String, column: String?) throws -> String? {
        let key: String
        if let column {
            key = column
        } else {
            let primary = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?) WHERE pk > 0", arguments: [parent])
            guard primary.count == 1 else { return nil }
            key = primary[0]
        }
        guard try isInteger(db, table: parent, column: key) else { return nil }
        // SQLite refuses a parent key that is neither the primary key nor unique ("foreign key
        // mismatch"); its check says so.
        let unique = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM pragma_table_info(:parent) WHERE pk > 0 AND name = :key COLLATE NOCASE
                           AND (SELECT count(*) FROM pragma_table_info(:parent) WHERE pk > 0) = 1)
                OR EXISTS (SELECT 1 FROM pragma_index_list(:parent) l WHERE l."unique" = 1
                           AND (SELECT count(*) FROM pragma_index_info(l.name)) = 1
                           AND (SELECT name FROM pragma_index_info(l.name)) = :key COLLATE NOCASE)
            """, arguments: ["parent": parent, "key": key]) ?? false
        return unique ? key : nil
    }

    /// Every value of `column` in `table`; nil if one is not an integer (NULLs match nothing).
    private static func integerValues(_ db: Database, table: String, column: String) throws -> [Int64]? {
        let statement = try db.makeStatement(sql: "SELECT \(column.quotedDatabaseIdentifier) FROM \(table.quotedDatabaseIdentifier)")
        let handle = statement.sqliteStatement
        var values: [Int64] = []
        while try db.nextRow(handle) {
            switch sqlite3_column_type(handle, 0) {
            case SQLITE_NULL: continue
            case SQLITE_INTEGER: values.append(sqlite3_column_int64(handle, 0))
            default: return nil
            }
        }
        return values
    }
}
