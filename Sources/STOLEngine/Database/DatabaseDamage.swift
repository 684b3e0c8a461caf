import GRDB
import STOLProtocol

/// A read found the active taxonomy database damaged (SQLite reported corrupt pages or a file
/// that is no longer a database). Answers -32020 `databaseCorrupt`; `database/info` then reports
/// the damage, and `database/deactivateReference` falls back to the bundled database.
public struct DatabaseDamage: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which database is damaged.
    public var source: DatabaseSource
    /// What SQLite said.
    public var detail: String

    /// The damage an error from a read shows, if it shows any.
    static func from(_ error: any Error, source: DatabaseSource) -> DatabaseDamage? {
        guard let error = error as? DatabaseError,
              [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) else { return nil }
        return DatabaseDamage(source: source, detail: error.message ?? "\(error.resultCode)")
    }

    public var description: String { "the \(source.rawValue) database is damaged: \(detail)" }
}
