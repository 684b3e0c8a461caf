import STOLProtocol
import STOLRPC

extension RPCServer {
    /// Sends `event` to the client as its notification.
    public func notify(_ event: EngineEvent) {
        switch event {
        case .databaseSwitched(let notification): notify(notification)
        case .favoritesChanged(let notification): notify(notification)
        case .diagnosticsChanged(let notification): notify(notification)
        }
    }
}
