import STOLJSON

// The lifecycle of a session: `initialize`, `initialized`, `ping`, `shutdown`, `exit`,
// `$/cancelRequest` and `rpc.discover`. The engine handles `$/cancelRequest` and `exit` as soon
// as it reads them; the others are methods like any other.

/// `initialize`: the server's name, version, protocol version and capabilities.
public struct InitializeRequest: RPCRequest, Hashable {
    public typealias Response = InitializeResult
    public static let method = "initialize"

    /// The client's process id: the engine exits when it dies. Nil: not watched.
    public var processId: Int32?
    /// The client's name and version; accepted and not used.
    public var clientInfo: ClientInfo?

    public init(processId: Int32? = nil, clientInfo: ClientInfo? = nil) {
        self.processId = processId
        self.clientInfo = clientInfo
    }

    /// A process id is a positive integer or null, and is told so otherwise.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let raw = try container.decodeIfPresent(JSONValue.self, forKey: .processId)
        clientInfo = try? container.decodeIfPresent(ClientInfo.self, forKey: .clientInfo)
        guard let raw, raw != .null else { return }
        guard let value = raw.int64Value, value > 0, value <= Int64(Int32.max) else {
            let error = RPCError.invalidParams(field: "processId", "must be a positive integer or null")
            throw DecodingError.dataCorrupted(.init(codingPath: [CodingKeys.processId], debugDescription: "not a process id", underlyingError: error))
        }
        processId = Int32(value)
    }

    enum CodingKeys: String, CodingKey { case processId, clientInfo }

    /// Who the client is.
    public struct ClientInfo: Codable, Hashable, Sendable {
        public var name: String?
        public var version: String?

        public init(name: String? = nil, version: String? = nil) {
            self.name = name
            self.version = version
        }
    }
}

/// What `initialize` answers.
public struct InitializeResult: Codable, Hashable, Sendable {
    /// The server's name and version.
    public struct ServerInfo: Codable, Hashable, Sendable {
        public var name: String
        public var version: String

        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }
    }

    public var serverInfo: ServerInfo
    /// The protocol version spoken (protocol/README.md).
    public var protocolVersion: String
    /// What the server supports: `cancellation`, `progress`, `batches`.
    public var capabilities: JSONValue

    public init(serverInfo: ServerInfo, protocolVersion: String, capabilities: JSONValue) {
        self.serverInfo = serverInfo
        self.protocolVersion = protocolVersion
        self.capabilities = capabilities
    }
}

/// `initialized`: the client's acknowledgement of `initialize`; nothing to do. Answered with
/// null when sent as a request.
public struct InitializedNotification: RPCNotification, Hashable {
    public static let method = "initialized"
    public init() {}
}

/// `ping`: answers `{}`.
public struct PingRequest: RPCRequest, Hashable {
    public typealias Response = EmptyResponse
    public static let method = "ping"
    public init() {}
}

/// `shutdown`: answered once everything read before it is; everything after is refused.
public struct ShutdownRequest: RPCRequest, Hashable {
    public typealias Response = NullResponse
    public static let method = "shutdown"
    public static let ordering = MethodOrdering.closingIntake
    public init() {}
}

/// `exit`: ends the engine once everything read before it is answered; the exit code is 0
/// after `shutdown`, 1 otherwise.
public struct ExitNotification: RPCNotification, Hashable {
    public static let method = "exit"
    public init() {}
}

/// `$/cancelRequest {id}`: cancels the request with `id`; it is answered -32800 unless it
/// finished first.
public struct CancelRequestNotification: RPCNotification, Hashable {
    public static let method = "$/cancelRequest"
    public var id: RequestID

    public init(id: RequestID) {
        self.id = id
    }
}

/// `rpc.discover`: the OpenRPC document of every method (protocol/openrpc.json).
public struct DiscoverRequest: RPCRequest, Hashable {
    public typealias Response = RawJSON
    public static let method = "rpc.discover"
    public init() {}
}
