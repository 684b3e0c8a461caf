import STOLJSON
import STOLProtocol

/// The lifecycle methods of this protocol: `initialize`, `initialized`, `ping`, `shutdown` and
/// `rpc.discover`. They are table methods like any other; only `$/cancelRequest` and `exit` are
/// handled inline by the server.
public enum LifecycleMethods {
    /// The five methods, answering with `identity`.
    public static func table(_ identity: RPCServer.Identity) -> MethodTable {
        var table = MethodTable()
        table.on(InitializeRequest.self) { request, context in
            if let pid = request.processId { context.watchParent(pid) }
            return InitializeResult(
                serverInfo: .init(name: identity.serverName, version: identity.serverVersion),
                protocolVersion: identity.protocolVersion, capabilities: identity.capabilities)
        }
        table.on(InitializedNotification.self) { _, _ in }
        table.on(PingRequest.self) { _, _ in EmptyResponse() }
        table.on(ShutdownRequest.self) { _, _ in NullResponse() }
        table.on(DiscoverRequest.self) { _, _ in RawJSON(bytes: identity.discoverDocument) }
        return table
    }
}
