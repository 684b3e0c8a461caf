import Foundation
import STOLProtocol

/// Why a reference database could not be imported or switched to. Every case answers -32020
/// with its `kind`, except `cancelled`, which answers like any cancelled request (-32800).
public enum ReferenceError: Error, Sendable, Equatable, CustomStringConvertible {
    case fileUnreadable(String)
    case fileTooLarge(size: Int64, limit: Int64)
    case notAStolFile(String)
    case checksumMismatch
    case signatureInvalid
    case decompressedTooLarge(limit: Int64)
    case incompatibleSchema(found: Int, expected: Int)
    /// The schema is not the format's (a table, column, index or other object differs); the detail
    /// names it. Answers with kind `incompatibleSchema`, like a newer version.
    case schemaMismatch(String)
    case databaseCorrupt(String)
    case importAlreadyInProgress
    case cancelled
    /// Writing inside the data directory failed (disk full, permissions).
    case importFailed(String)
    /// `database/activateReference` with no reference database imported.
    case referenceMissing
    /// `settings.json` could not be saved (disk full, permissions): nothing was switched.
    case settingsUnwritable(String)
    /// The reference database file could not be deleted.
    case deleteFailed(String)
    /// Another engine on the same data directory is importing, switching or deleting now.
    case busyInAnotherProcess

    /// The stable name clients see (`data.kind`).
    public var kind: ErrorKind {
        switch self {
        case .fileUnreadable: .fileUnreadable
        case .fileTooLarge: .fileTooLarge
        case .notAStolFile: .notAStolFile
        case .checksumMismatch: .checksumMismatch
        case .signatureInvalid: .signatureInvalid
        case .decompressedTooLarge: .decompressedTooLarge
        case .incompatibleSchema, .schemaMismatch: .incompatibleSchema
        case .databaseCorrupt: .databaseCorrupt
        case .importAlreadyInProgress: .importAlreadyInProgress
        case .cancelled: .cancelled
        case .importFailed: .importFailed
        case .referenceMissing: .referenceMissing
        case .settingsUnwritable: .settingsUnwritable
        case .deleteFailed: .deleteFailed
        case .busyInAnotherProcess: .busyInAnotherProcess
        }
    }

    public var description: String {
        switch self {
        case .fileUnreadable(let d): "cannot read the file: \(d)"
        case let .fileTooLarge(size, limit): "the file is \(size) bytes; the limit is \(limit)"
        case .notAStolFile(let d): "not a .stol file: \(d)"
        case .checksumMismatch: "the payload does not match its SHA-256"
        case .signatureInvalid: "the signature is not valid for any trusted key"
        case .decompressedTooLarge(let limit): "the database inflates beyond the limit of \(limit) bytes"
        case let .incompatibleSchema(found, expected): "schema version \(found) is not supported (this engine reads up to \(expected))"
        case .schemaMismatch(let d): "the database's schema is not the format's: \(d)"
        case .databaseCorrupt(let d): "the database is corrupt: \(d)"
        case .importAlreadyInProgress: "an import is already in progress"
        case .cancelled: "the import was cancelled"
        case .importFailed(let d): "the import could not be written: \(d)"
        case .referenceMissing: "no reference database has been imported"
        case .settingsUnwritable(let d): "the settings could not be saved, so nothing was switched: \(d)"
        case .deleteFailed(let d): "the reference database could not be deleted: \(d)"
        case .busyInAnotherProcess: "another engine using the same data directory is importing or switching databases; try again when it is done"
        }
    }
}
