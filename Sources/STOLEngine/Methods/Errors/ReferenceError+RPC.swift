import STOLProtocol
import STOLRPC

/// How `ReferenceError` is answered over JSON-RPC.
extension ReferenceError: RPCErrorConvertible {
    public var rpcError: RPCError {
        let code = ErrorCode.reference
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
