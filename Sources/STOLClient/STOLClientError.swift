import STOLProtocol

/// Why a call could not be made or answered, other than an error the engine answered with
/// (those are thrown as `RPCError`, with their code, kind and data).
public enum STOLClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The engine ended: this call was pending or made afterwards. `STOLClient.restart()` starts
    /// a new one.
    case engineExited(EngineExit)
    /// The engine could not be started (the binary is missing, the handshake failed).
    case startFailed(String)
    /// The engine's answer does not decode as the contract's response.
    case invalidResponse(method: String, detail: String)
    /// The client was shut down (`STOLClient.shutdown()`).
    case shutDown

    public var description: String {
        switch self {
        case .engineExited(let exit): "\(exit)"
        case .startFailed(let detail): "the engine could not be started: \(detail)"
        case let .invalidResponse(method, detail): "\(method) answered something its contract does not describe: \(detail)"
        case .shutDown: "the client was shut down"
        }
    }
}
