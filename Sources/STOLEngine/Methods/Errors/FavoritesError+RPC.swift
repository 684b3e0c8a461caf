import STOLProtocol
import STOLRPC

/// How `FavoritesError` is answered over JSON-RPC.
extension FavoritesError: RPCErrorConvertible {
    public var rpcError: RPCError {
        switch self {
        case .unavailable(let detail):
            .kind(ErrorCode.favorites, .favoritesUnavailable, "Favourites are unavailable: \(detail)", ["detail": .string(detail)])
        case .diskFull:
            .kind(ErrorCode.favorites, .diskFull, "The disk is full: free some space (removing favourites still works)")
        case let .newerVersion(found, supported):
            .kind(ErrorCode.favorites, .favoritesNewerVersion, "The favourites database was written by a newer version of the app",
                  ["version": .integer(found), "supported": .integer(supported)])
        }
    }
}
