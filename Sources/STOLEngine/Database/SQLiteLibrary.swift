import CSQLiteSettings
import GRDBSQLite

/// Settings of the SQLite library itself, for the whole process.
public enum SQLiteLibrary {
    /// Turns off SQLite's memory statistics, which the engine never reads. With them on, every
    /// allocation of every connection takes one process-wide lock, and two connections on two
    /// threads (a build's writer and its full-text or check connections, a server's readers)
    /// wait for each other at each one.
    ///
    /// Takes effect only before the process's first connection: returns false, and changes
    /// nothing, once SQLite is in use.
    @discardableResult
    public static func turnOffMemoryStatistics() -> Bool {
        stol_sqlite_disable_memory_statistics() == SQLITE_OK
    }
}
