import GRDB
import GRDBSQLite

extension Database {
    /// Steps `handle`, a raw statement of this database: true with a row, false at the end, and
    /// SQLite's error otherwise. For the passes that read millions of rows through the C interface
    /// (the LCA index's, the checks of a built database).
    package func nextRow(_ handle: OpaquePointer?) throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_DONE { return false }
        guard code == SQLITE_ROW else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqliteConnection)))
        }
        return true
    }
}
