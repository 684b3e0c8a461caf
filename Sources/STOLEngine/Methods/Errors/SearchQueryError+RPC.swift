import STOLProtocol
import STOLRPC

/// How `SearchQueryError` is answered over JSON-RPC: invalid params naming `query`.
extension SearchQueryError: RPCErrorConvertible {
    public var rpcError: RPCError {
        switch self {
        case .tooLong(let maximum): .invalidParams(field: "query", "is longer than \(maximum) characters")
        }
    }
}
