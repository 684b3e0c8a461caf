import Foundation

/// Why the bundled database is served although the setting chose the reference database: the
/// reference file could not be opened or read (at start, or when another engine on the data
/// directory installed it). `database/info` reports it as `referenceFallback` until a reference
/// database is active again; `database/deactivateReference` and a new import still work.
public struct ReferenceFallback: Codable, Sendable, Equatable {
    /// What was wrong with the file, as the open found it.
    public var detail: String
    /// When it was found (UTC, ISO 8601).
    public var at: String

    init(detail: String, at date: Date = Date()) {
        self.detail = detail
        self.at = Timestamp.iso(date)
    }
}

extension ReferenceError {
    /// The import or switch error for a database that cannot be opened.
    init(opening error: DatabaseOpenError) {
        switch error {
        case let .incompatibleSchema(found, expected): self = .incompatibleSchema(found: found, expected: expected)
        case .corrupt(let detail): self = .databaseCorrupt(detail)
        default: self = .databaseCorrupt("\(error)")
        }
    }
}
