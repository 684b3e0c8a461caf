import STOLRPC
import STOLJSON

/// How `FavoritesError` is answered over JSON-RPC.
extension FavoritesError: RPCErrorConvertible {
    /// The JSON-RPC error code of this family of errors.
    public static let code = -32010

    public var rpcError: RPCError {
        switch self {
        case .unavailable(let detail):
            .kind(Self.code, "favoritesUnavailable", "Favourites are unavailable: \(detail)", ["detail": .string(detail)])
        case .diskFull:
            .kind(Self.code, "diskFull", "The disk is full: free some space (removing favourites still works)")
        case let .newerVersion(found, supported):
            .kind(Self.code, "favoritesNewerVersion", "The favourites database was written by a newer version of the app",
                  ["version": .integer(found), "supported": .integer(supported)])
        }
    }
}
