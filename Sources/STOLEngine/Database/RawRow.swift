import GRDB
import GRDBSQLite

/// The current row of a statement stepped through SQLite's C API: columns read by position
/// without GRDB's row decoding, for the busiest single-row query (`taxon/get`).
struct RawRow {
    fileprivate let handle: OpaquePointer

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func int64(_ column: Int32) -> Int64? { isNull(column) ? nil : sqlite3_column_int64(handle, column) }

    func int(_ column: Int32) -> Int? { int64(column).map { Int($0) } }

    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self)
    }
}

extension Statement {
    /// Binds `arguments` by name (`":id"`), steps once and hands the first row to `body`; nil when
    /// the query has no row. The statement is reset before and after, so it can stay cached.
    func firstRawRow<T>(binding arguments: KeyValuePairs<String, BulkStatement.Value>, _ body: (RawRow) throws -> T) throws -> T? {
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
        case SQLITE_ROW: return try body(RawRow(handle: handle))
        case SQLITE_DONE: return nil
        case let code:
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))))
        }
    }
}
