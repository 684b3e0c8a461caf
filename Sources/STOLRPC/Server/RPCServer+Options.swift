import STOLJSON
import STOLProtocol

extension RPCServer {
    /// What the server says about itself (`identity`), which JSON-RPC conventions it speaks
    /// (`dialect`), and how it bounds its resources (`limits`).
    public struct Options: Sendable {
        public var identity = Identity()
        public var dialect = Dialect()
        public var limits = Limits()
        /// Exit when this process dies (also settable by `initialize.processId`).
        public var parentProcessID: Int32?

        public init() {}
    }

    /// What `initialize` and `rpc.discover` say about the server.
    public struct Identity: Sendable {
        public var serverName = "stol-engine"
        public var serverVersion = "0.0.0"
        public var protocolVersion = "1.0"
        /// Capabilities advertised by `initialize`.
        public var capabilities: JSONValue = .object(["cancellation": true, "progress": true, "batches": true])
        /// The OpenRPC document returned by `rpc.discover`, as raw JSON bytes.
        public var discoverDocument: [UInt8] = Array("{}".utf8)

        public init() {}
    }

    /// The conventions of the protocol spoken over JSON-RPC: this project's (LSP's), or one that
    /// brings its own (MCP).
    public struct Dialect: Sendable {
        /// Whether the server adds `LifecycleMethods` to the table. Off for a protocol that brings
        /// its own lifecycle (MCP).
        public var standardLifecycle = true
        /// The notification that cancels a request, and the params member holding its id.
        public var cancelNotification = CancelRequestNotification.method
        public var cancelIDMember = "id"
        /// The notification that ends the server; nil when the protocol has none.
        public var exitNotification: String? = ExitNotification.method
        /// How progress notifications are written.
        public var progressNotation = ProgressReporter.Notation.dollarProgress
        /// Whether a request cancelled by the client is still answered (-32800). MCP says it is not.
        public var answersCancelledRequests = true

        public init() {}
    }

    /// How much the server takes in and holds at once, and how long it waits when stopping.
    public struct Limits: Sendable {
        /// Lines longer than this are answered with an error and skipped.
        public var maxMessageBytes = 64 << 20
        /// Intake pauses while more than this many response bytes wait for the client (answers
        /// held for a batch that is not complete yet count too).
        public var outputBudgetBytes = 16 << 20
        /// Intake also pauses while this many requests are still running (each request of a batch
        /// counts), so that answers not yet written are bounded too: the budget alone cannot see them.
        public var maxRunningRequests = 64
        /// A batch with more entries than this is answered with one `batchTooLarge` error and
        /// none of it runs: its answers are held until the last one is ready.
        public var maxBatchEntries = 1000
        /// The most bytes of answers one batch keeps (see `BatchAnswerBudget`): parts whose
        /// answers do not fit are answered `batchAnswerTooLarge` instead.
        public var maxBatchAnswerBytes = 16 << 20
        /// After `stop`, how long cancelled requests may take to end and their answers to be
        /// written before `run()` returns anyway.
        public var stopGracePeriod: Duration = .seconds(10)

        public init() {}
    }
}
