import STOLProtocol

/// A domain error that knows which JSON-RPC error it should become; the engine's conformances
/// are in `Methods/Errors`.
public protocol RPCErrorConvertible: Error {
    var rpcError: RPCError { get }
}

extension RPCError {
    /// The one mapping from an error a handler threw to the error its request is answered with,
    /// used by the server over stdio, by MCP's `tools/call` and by the in-process client: an
    /// `RPCError` as it is, a domain error as it says (`RPCErrorConvertible`), a cancellation
    /// as -32800 (also a database's own interrupt error when the request was cancelled:
    /// `cancelled` is the task's state), and anything else as -32603 with no detail, which
    /// `isUnexpected` tells the caller to log.
    public init(thrown error: any Error, cancelled: Bool) {
        switch error {
        case let error as RPCError: self = error
        case let error as any RPCErrorConvertible: self = error.rpcError
        case is CancellationError: self = .cancelled
        default: self = cancelled ? .cancelled : .internalError
        }
    }

    /// Whether `error` maps to -32603 for want of a mapping: a bug or an unforeseen failure,
    /// whose detail belongs in the log.
    public static func isUnexpected(_ error: any Error, cancelled: Bool) -> Bool {
        !(error is RPCError || error is any RPCErrorConvertible || error is CancellationError || cancelled)
    }
}
