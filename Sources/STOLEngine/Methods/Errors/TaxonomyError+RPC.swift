import STOLProtocol
import STOLRPC

/// How `TaxonomyError` is answered over JSON-RPC.
extension TaxonomyError: RPCErrorConvertible {
    public var rpcError: RPCError {
        switch self {
        case .taxonNotFound(let id):
            .kind(ErrorCode.notFound, .taxonNotFound, "No taxon with id \(id)", ["id": .integer(id)])
        }
    }
}
