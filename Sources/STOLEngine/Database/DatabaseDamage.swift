import GRDB
import STOLProtocol

/// A read found the active taxonomy database damaged: SQLite reported corrupt pages or a file
/// that is no longer a database, FTS5 an index it cannot read, or the data broke the schema (a
/// `DataFault`: a value of another type than its column's, a lineage with no root). Answers
/// -32020 `databaseCorrupt`; `database/info` then reports the damage, and
/// `database/deactivateReference` falls back to the bundled database.
public struct DatabaseDamage: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which database is damaged.
    public var source: DatabaseSource
    /// What SQLite said, or what the data breaks.
    public var detail: String

    /// The damage an error from a read shows, if it shows any.
    static func from(_ error: any Error, source: DatabaseSource) -> DatabaseDamage? {
        if let fault = error as? DataFault { return DatabaseDamage(source: source, detail: fault.detail) }
        // GRDB's throwing decoders (`Int64.fetchAll`, `row.decode`) meet a value of another type.
        if let error = error as? RowDecodingError { return DatabaseDamage(source: source, detail: "a value of an unexpected type: \(error)") }
        guard let error = error as? DatabaseError else { return nil }
        // FTS5 refuses an index whose format version it does not know with a plain SQLITE_ERROR.
        if error.resultCode == .SQLITE_ERROR, let message = error.message, message.hasPrefix("invalid fts5 file format") {
            return DatabaseDamage(source: source, detail: message)
        }
        guard [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) else { return nil }
        return DatabaseDamage(source: source, detail: error.message ?? "\(error.resultCode)")
    }

    public var description: String { "the \(source.rawValue) database is damaged: \(detail)" }
}
