import GRDB
import GRDBSQLite

/// The current row of a statement over a taxonomy database, each column read through SQLite's C
/// API as the schema declares it. SQLite keeps whatever a file holds, so a value of another type
/// (text in an INTEGER column, a blob), text that is not UTF-8 or holds NUL, NULL where the schema
/// forbids it, or a value outside the schema's set throws a `DataFault` naming the column and the
/// row: never a trap, never a silent conversion. Every read of taxonomy data goes through it
/// (GRDB's `row[…]` traps on a value it cannot convert).
///
/// Columns are named `table.column` (`taxa.year`) for the fault's detail; `rowids` says which
/// columns hold the rowids of the tables the query reads, so that a fault names its row.
struct StoredRow {
    /// Per table read, the position of the column holding its rowid (`[("taxa", 0)]`).
    typealias RowIDs = [(table: String, column: Int32)]

    private let handle: OpaquePointer
    private let rowids: RowIDs

    init(_ handle: OpaquePointer, rowids: RowIDs = []) {
        self.handle = handle
        self.rowids = rowids
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// An INTEGER column that may be NULL.
    func integerOrNull(_ i: Int32, _ column: String) throws -> Int64? {
        switch sqlite3_column_type(handle, i) {
        case SQLITE_INTEGER: return sqlite3_column_int64(handle, i)
        case SQLITE_NULL: return nil
        default: throw fault(i, column, expected: "an integer")
        }
    }

    /// An INTEGER NOT NULL column.
    func integer(_ i: Int32, _ column: String) throws -> Int64 {
        guard let value = try integerOrNull(i, column) else { throw fault(i, column, expected: "an integer (NOT NULL)") }
        return value
    }

    /// A taxon id: an integer in the protocol's range (`TaxonomyLimits.taxonIDs`), or NULL.
    func taxonIDOrNull(_ i: Int32, _ column: String) throws -> Int64? {
        guard let value = try integerOrNull(i, column) else { return nil }
        guard TaxonomyLimits.taxonIDs.contains(value) else { throw fault(i, column, expected: "a taxon id (1 to 2^53 - 1)") }
        return value
    }

    /// A taxon id that is never NULL.
    func taxonID(_ i: Int32, _ column: String) throws -> Int64 {
        guard let value = try taxonIDOrNull(i, column) else { throw fault(i, column, expected: "a taxon id (NOT NULL)") }
        return value
    }

    /// A 0/1 INTEGER NOT NULL column (`names.is_preferred`).
    func flag(_ i: Int32, _ column: String) throws -> Bool {
        switch try integer(i, column) {
        case 0: return false
        case 1: return true
        default: throw fault(i, column, expected: "0 or 1")
        }
    }

    /// A TEXT column that may be NULL: valid UTF-8 without NUL.
    func textOrNull(_ i: Int32, _ column: String) throws -> String? {
        switch sqlite3_column_type(handle, i) {
        case SQLITE_TEXT:
            let bytes = sqlite3_column_text(handle, i)
            let count = Int(sqlite3_column_bytes(handle, i))
            if let problem = StoredText.problem(bytes, count: count) {
                throw DataFault.value(column, row: row(of: column), found: problem.found, expected: "text")
            }
            guard let bytes else { return "" }
            return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        case SQLITE_NULL: return nil
        default: throw fault(i, column, expected: "text")
        }
    }

    /// A TEXT NOT NULL column.
    func text(_ i: Int32, _ column: String) throws -> String {
        guard let value = try textOrNull(i, column) else { throw fault(i, column, expected: "text (NOT NULL)") }
        return value
    }

    /// A TEXT column holding one of the raw values of `T` (a rank, a status), or NULL.
    func memberOrNull<T: RawRepresentable & CaseIterable>(_ type: T.Type, _ i: Int32, _ column: String) throws -> T? where T.RawValue == String {
        guard let text = try textOrNull(i, column) else { return nil }
        guard let value = T(rawValue: text) else {
            throw DataFault.value(column, row: row(of: column), found: "'\(Self.excerpt(text))'",
                                  expected: "one of \(T.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))")
        }
        return value
    }

    /// A TEXT NOT NULL column holding one of the raw values of `T`.
    func member<T: RawRepresentable & CaseIterable>(_ type: T.Type, _ i: Int32, _ column: String) throws -> T where T.RawValue == String {
        guard let value = try memberOrNull(type, i, column) else { throw fault(i, column, expected: "text (NOT NULL)") }
        return value
    }

    /// The row `column` (`table.column`) was read from: its table's rowid when the query selects
    /// it, else the first table's the query names.
    private func row(of column: String) -> (table: String, rowid: Int64)? {
        let table = column.prefix { $0 != "." }
        guard let entry = rowids.first(where: { $0.table == table }) ?? rowids.first,
              sqlite3_column_type(handle, entry.column) == SQLITE_INTEGER else { return nil }
        return (entry.table, sqlite3_column_int64(handle, entry.column))
    }

    /// The fault of column `i` holding what it holds where `expected` was due.
    private func fault(_ i: Int32, _ column: String, expected: String) -> DataFault {
        DataFault.value(column, row: row(of: column), found: Self.describe(handle, i), expected: expected)
    }

    /// What column `i` of the row `handle` is on holds, for a fault's detail: its storage class and
    /// a short, printable excerpt.
    static func describe(_ handle: OpaquePointer, _ i: Int32) -> String {
        switch sqlite3_column_type(handle, i) {
        case SQLITE_NULL: return "NULL"
        case SQLITE_INTEGER: return "the integer \(sqlite3_column_int64(handle, i))"
        case SQLITE_FLOAT: return "the real \(sqlite3_column_double(handle, i))"
        case SQLITE_BLOB: return "a blob of \(sqlite3_column_bytes(handle, i)) bytes"
        default:
            let bytes = sqlite3_column_text(handle, i)
            let count = Int(sqlite3_column_bytes(handle, i))
            if let problem = StoredText.problem(bytes, count: count) { return problem.found }
            guard let bytes else { return "text ''" }
            return "text '\(excerpt(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)))'"
        }
    }

    /// At most 40 characters of `text`, control characters escaped.
    static func excerpt(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(40) {
            out += scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }
        return text.unicodeScalars.count > 40 ? out + "…" : out
    }
}

extension Statement {
    /// Binds `arguments` by name (`":id"`), steps once and hands the first row to `body`; nil when
    /// the query has no row. The statement is reset before and after, so it can stay cached. For
    /// the busiest single-row query (`taxon/get`), without GRDB's argument handling.
    func firstStoredRow<T>(binding arguments: KeyValuePairs<String, BulkStatement.Value>, rowids: StoredRow.RowIDs = [], _ body: (StoredRow) throws -> T) throws -> T? {
        let handle = sqliteStatement
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        defer { sqlite3_reset(handle) }
        for (name, value) in arguments {
            let index = sqlite3_bind_parameter_index(handle, name)
            guard index > 0 else { continue }
            switch value {
            case .int(let v): sqlite3_bind_int64(handle, index, v)
            case .text(let s): sqlite3_bind_text(handle, index, s, -1, BulkStatement.transient)
            case .null: sqlite3_bind_null(handle, index)
            }
        }
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return try body(StoredRow(handle, rowids: rowids))
        case SQLITE_DONE: return nil
        case let code:
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))))
        }
    }

    /// Steps through every row with `arguments`, handing each to `body`.
    func forEachStoredRow(_ arguments: StatementArguments = StatementArguments(), rowids: StoredRow.RowIDs = [], _ body: (StoredRow) throws -> Void) throws {
        let rows = try Row.fetchCursor(self, arguments: arguments)
        let handle = sqliteStatement
        while try rows.next() != nil { try body(StoredRow(handle, rowids: rowids)) }
    }

    /// `body` of every row with `arguments`, in order.
    func storedRows<T>(_ arguments: StatementArguments = StatementArguments(), rowids: StoredRow.RowIDs = [], _ body: (StoredRow) throws -> T) throws -> [T] {
        var out: [T] = []
        try forEachStoredRow(arguments, rowids: rowids) { out.append(try body($0)) }
        return out
    }

    /// `body` of the first row with `arguments`; nil when there is none.
    func firstStoredRow<T>(_ arguments: StatementArguments = StatementArguments(), rowids: StoredRow.RowIDs = [], _ body: (StoredRow) throws -> T) throws -> T? {
        let rows = try Row.fetchCursor(self, arguments: arguments)
        guard try rows.next() != nil else { return nil }
        return try body(StoredRow(sqliteStatement, rowids: rowids))
    }
}

extension Database {
    /// `body` of every row of `sql` with `arguments`, read as `StoredRow`s from a cached statement.
    func storedRows<T>(_ sql: String, _ arguments: StatementArguments = StatementArguments(), rowids: StoredRow.RowIDs = [], _ body: (StoredRow) throws -> T) throws -> [T] {
        try cachedStatement(sql: sql).storedRows(arguments, rowids: rowids, body)
    }
}
