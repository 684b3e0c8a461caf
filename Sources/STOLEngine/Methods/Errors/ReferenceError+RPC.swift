import STOLRPC
import STOLJSON

/// How `ReferenceError` is answered over JSON-RPC.
extension ReferenceError: RPCErrorConvertible {
    /// The JSON-RPC error code of this family of errors.
    public static let code = -32020

    public var rpcError: RPCError {
        let code = Self.code
        switch self {
        case .fileUnreadable(let d): return .kind(code, kind, description, ["detail": .string(d)])
        case let .fileTooLarge(size, limit): return .kind(code, kind, description, ["size": .integer(Int(size)), "limit": .integer(Int(limit))])
        case .notAStolFile(let d): return .kind(code, kind, description, ["detail": .string(d)])
        case .decompressedTooLarge(let limit): return .kind(code, kind, description, ["limit": .integer(Int(limit))])
        case let .incompatibleSchema(found, expected): return .kind(code, kind, description, ["found": .integer(found), "expected": .integer(expected)])
        case .databaseCorrupt(let d), .schemaMismatch(let d): return .kind(code, kind, description, ["detail": .string(d)])
        case .importFailed(let d), .settingsUnwritable(let d), .deleteFailed(let d): return .kind(code, kind, description, ["detail": .string(d)])
        case .cancelled: return .cancelled
        case .checksumMismatch, .signatureInvalid, .importAlreadyInProgress, .referenceMissing, .busyInAnotherProcess: return .kind(code, kind, description)
        }
    }
}
