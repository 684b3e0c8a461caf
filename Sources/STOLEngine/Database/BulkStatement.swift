import GRDB
import GRDBSQLite

/// A prepared insert bound through SQLite's C API: the pipeline writes millions of rows, and
/// building `StatementArguments` for each would dominate the build time.
package struct BulkStatement {
    package enum Value {
        case int(Int64)
        case text(String)
        case null
    }

    private let statement: Statement

    package init(_ db: Database, _ sql: String) throws {
        statement = try db.makeStatement(sql: sql)
    }

    package func insert(_ values: Value...) throws {
        try insert(values)
    }

    package func insert(_ values: [Value]) throws {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            switch value {
            case .int(let v): sqlite3_bind_int64(handle, index, v)
            case .text(let s): sqlite3_bind_text(handle, index, s, -1, Self.transient)
            case .null: sqlite3_bind_null(handle, index)
            }
        }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))))
        }
    }

    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

extension BulkStatement.Value {
    package static func optional(_ v: String?) -> Self { v.map { .text($0) } ?? .null }
    package static func optional(_ v: Int?) -> Self { v.map { .int(Int64($0)) } ?? .null }
}
