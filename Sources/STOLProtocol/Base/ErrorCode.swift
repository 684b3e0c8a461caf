/// The error codes of JSON-RPC 2.0, LSP's cancellation code, and this protocol's own families.
public enum ErrorCode {
    public static let parseError = -32700
    public static let invalidRequest = -32600
    public static let methodNotFound = -32601
    public static let invalidParams = -32602
    public static let internalError = -32603
    public static let requestCancelled = -32800
    public static let serverShutDown = -32001
    public static let notFound = -32002
    public static let notPossible = -32003
    /// The favourites file cannot serve the request.
    public static let favorites = -32010
    /// A reference database cannot be imported, switched to or read.
    public static let reference = -32020
    /// A media pack cannot be imported or deleted.
    public static let media = -32021
}

/// The stable name of an error, its `data.kind`: what a client branches on (the message is for
/// people and may change). Every kind the engine answers with is listed; a newer engine may add
/// others, so a client must expect names it does not know.
public struct ErrorKind: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    // JSON-RPC and the lifecycle
    public static let invalidJSON: ErrorKind = "invalidJSON"
    public static let invalidUTF8: ErrorKind = "invalidUTF8"
    public static let invalidRequest: ErrorKind = "invalidRequest"
    public static let messageTooLarge: ErrorKind = "messageTooLarge"
    public static let batchTooLarge: ErrorKind = "batchTooLarge"
    public static let batchAnswerTooLarge: ErrorKind = "batchAnswerTooLarge"
    public static let methodNotFound: ErrorKind = "methodNotFound"
    public static let invalidParams: ErrorKind = "invalidParams"
    public static let `internal`: ErrorKind = "internal"
    public static let cancelled: ErrorKind = "cancelled"
    public static let serverShutDown: ErrorKind = "serverShutDown"

    // Taxonomy and compare
    public static let taxonNotFound: ErrorKind = "taxonNotFound"
    public static let notASpecies: ErrorKind = "notASpecies"

    // Favourites (`ErrorCode.favorites`)
    public static let favoritesUnavailable: ErrorKind = "favoritesUnavailable"
    public static let diskFull: ErrorKind = "diskFull"
    public static let favoritesNewerVersion: ErrorKind = "favoritesNewerVersion"

    // Reference databases and media packs (`ErrorCode.reference`, `ErrorCode.media`)
    public static let fileUnreadable: ErrorKind = "fileUnreadable"
    public static let fileTooLarge: ErrorKind = "fileTooLarge"
    public static let notAStolFile: ErrorKind = "notAStolFile"
    public static let decompressedTooLarge: ErrorKind = "decompressedTooLarge"
    public static let checksumMismatch: ErrorKind = "checksumMismatch"
    public static let signatureInvalid: ErrorKind = "signatureInvalid"
    public static let incompatibleSchema: ErrorKind = "incompatibleSchema"
    public static let databaseCorrupt: ErrorKind = "databaseCorrupt"
    public static let importAlreadyInProgress: ErrorKind = "importAlreadyInProgress"
    public static let importFailed: ErrorKind = "importFailed"
    public static let referenceMissing: ErrorKind = "referenceMissing"
    public static let busyInAnotherProcess: ErrorKind = "busyInAnotherProcess"
    public static let settingsUnwritable: ErrorKind = "settingsUnwritable"
    public static let deleteFailed: ErrorKind = "deleteFailed"
    public static let mediaPackNotFound: ErrorKind = "mediaPackNotFound"
    public static let mediaPackNotDeletable: ErrorKind = "mediaPackNotDeletable"

    // Diagnostics
    public static let diagnosticsUndeletable: ErrorKind = "diagnosticsUndeletable"
}
