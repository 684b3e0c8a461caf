import STOLJSON
/// The lifecycle methods of this protocol: `initialize`, `initialized`, `ping`, `shutdown` and
/// `rpc.discover`. They are table methods like any other; only `$/cancelRequest` and `exit` are
/// handled inline by the server.
public enum LifecycleMethods {
    /// What `initialize` and `rpc.discover` say about the server.
    public struct Identity: Sendable {
        public var serverName: String
        public var serverVersion: String
        public var protocolVersion: String
        /// Capabilities advertised by `initialize`.
        public var capabilities: JSONValue
        /// The OpenRPC document returned by `rpc.discover`, as raw JSON bytes.
        public var discoverDocument: [UInt8]

        public init(serverName: String, serverVersion: String, protocolVersion: String, capabilities: JSONValue, discoverDocument: [UInt8]) {
            self.serverName = serverName
            self.serverVersion = serverVersion
            self.protocolVersion = protocolVersion
            self.capabilities = capabilities
            self.discoverDocument = discoverDocument
        }
    }

    /// `initialize`: the server's name, version, protocol version and capabilities.
    public enum Initialize: RPCMethod {
        public struct Params: Decodable, Sendable {
            /// The client's process id: the server exits when it dies. Null or absent: not watched.
            public var processId: JSONValue?
            /// The client's name and version; accepted and not used.
            public var clientInfo: JSONValue?
        }
        public typealias Result = JSONValue
        public static let name = "initialize"
    }

    /// `initialized`: the client's acknowledgement; nothing to do.
    public enum Initialized: RPCMethod {
        public typealias Result = JSONValue
        public static let name = "initialized"
    }

    /// `ping`: answers `{}`.
    public enum Ping: RPCMethod {
        public typealias Result = EmptyResult
        public static let name = "ping"
    }

    /// `shutdown`: answered once everything read before it is; everything after is refused.
    public enum Shutdown: RPCMethod {
        public typealias Result = JSONValue
        public static let name = "shutdown"
        public static let ordering = MethodOrdering.closingIntake
    }

    /// `rpc.discover`: the OpenRPC document.
    public enum Discover: RPCMethod {
        public typealias Result = RawJSON
        public static let name = "rpc.discover"
    }

    /// The five methods, answering with `identity`.
    public static func table(_ identity: Identity) -> MethodTable {
        var table = MethodTable()
        table.on(Initialize.self) { params, context in
            if let pid = params.processId, pid != .null {
                guard let value = pid.int64Value, value > 0, value <= Int64(Int32.max) else {
                    throw RPCError.invalidParams(field: "processId", "must be a positive integer or null")
                }
                context.watchParent(Int32(value))
            }
            return .object([
                "serverInfo": .object(["name": .string(identity.serverName), "version": .string(identity.serverVersion)]),
                "protocolVersion": .string(identity.protocolVersion),
                "capabilities": identity.capabilities,
            ])
        }
        table.on(Initialized.self) { _, _ in .null }
        table.on(Ping.self) { _, _ in EmptyResult() }
        table.on(Shutdown.self) { _, _ in .null }
        table.on(Discover.self) { _, _ in RawJSON(bytes: identity.discoverDocument) }
        return table
    }
}
