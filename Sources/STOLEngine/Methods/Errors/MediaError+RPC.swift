import STOLRPC
import STOLJSON

/// How `MediaError` is answered over JSON-RPC.
extension MediaError: RPCErrorConvertible {
    /// The JSON-RPC error code of this family of errors.
    public static let code = -32021

    public var rpcError: RPCError {
        switch self {
        case .importFailure(let error):
            var rpc = error.rpcError
            if rpc.code == ReferenceError.code { rpc.code = Self.code }
            return rpc
        case .packNotFound(let id): return .kind(ErrorCode.notFound, "mediaPackNotFound", description, ["id": .string(id)])
        case .packNotDeletable(let id): return .kind(ErrorCode.notPossible, "mediaPackNotDeletable", description, ["id": .string(id)])
        case let .deleteFailed(id, detail): return .kind(Self.code, "deleteFailed", description, ["id": .string(id), "detail": .string(detail)])
        }
    }
}
