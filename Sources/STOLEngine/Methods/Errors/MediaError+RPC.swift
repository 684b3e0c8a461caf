import STOLProtocol
import STOLRPC

/// How `MediaError` is answered over JSON-RPC.
extension MediaError: RPCErrorConvertible {
    public var rpcError: RPCError {
        switch self {
        case .importFailure(let error):
            var rpc = error.rpcError
            if rpc.code == ErrorCode.reference { rpc.code = ErrorCode.media }
            return rpc
        case .packNotFound(let id): return .kind(ErrorCode.notFound, .mediaPackNotFound, description, ["id": .string(id)])
        case .packNotDeletable(let id): return .kind(ErrorCode.notPossible, .mediaPackNotDeletable, description, ["id": .string(id)])
        case let .deleteFailed(id, detail): return .kind(ErrorCode.media, .deleteFailed, description, ["id": .string(id), "detail": .string(detail)])
        }
    }
}
