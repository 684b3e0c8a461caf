import STOLProtocol
import STOLRPC

/// How `DatabaseDamage` is answered over JSON-RPC.
extension DatabaseDamage: RPCErrorConvertible {
    public var rpcError: RPCError {
        if source == .reference {
            return .kind(ErrorCode.reference, .databaseCorrupt, description,
                         ["detail": .string(detail), "fallback": "database/deactivateReference", "source": .string(source.rawValue)])
        }
        return .kind(ErrorCode.reference, .databaseCorrupt, description, ["detail": .string(detail), "source": .string(source.rawValue)])
    }
}
