import STOLProtocol
import STOLRPC

/// How `CompareError` is answered over JSON-RPC.
extension CompareError: RPCErrorConvertible {
    public var rpcError: RPCError {
        switch self {
        case .notASpecies(let id):
            .kind(ErrorCode.notPossible, .notASpecies, "Taxon \(id) is not a species", ["id": .integer(id)])
        }
    }
}
