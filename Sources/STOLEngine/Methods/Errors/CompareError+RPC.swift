import STOLProtocol
import STOLRPC

/// How `CompareError` is answered over JSON-RPC.
extension CompareError: RPCErrorConvertible {
    public var rpcError: RPCError {
        switch self {
        case let .noCommonAncestor(a, b):
            .kind(ErrorCode.notPossible, .noCommonAncestor, "Taxa \(a) and \(b) have no common ancestor", ["a": .integer(a), "b": .integer(b)])
        case .notASpecies(let id):
            .kind(ErrorCode.notPossible, .notASpecies, "Taxon \(id) is not a species", ["id": .integer(id)])
        }
    }
}
