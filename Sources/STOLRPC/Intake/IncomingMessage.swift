import STOLJSON
import STOLProtocol
/// A request or notification that passed JSON-RPC 2.0 validation.
public struct Request: Sendable {
    /// `nil` for a notification.
    public var id: RequestID?
    public var method: String
    /// An object or an array, or nil when absent.
    public var params: JSONValue?

    public var isNotification: Bool { id == nil }

    public init(id: RequestID?, method: String, params: JSONValue?) {
        self.id = id
        self.method = method
        self.params = params
    }
}

/// One entry of an incoming line, classified: a valid request, or the error it earns.
public enum IncomingMessage: Sendable {
    case request(Request)
    /// Invalid; answered with `error` and the id, when one could be read.
    case invalid(id: RequestID, error: RPCError)
    /// A response from the client; the engine sends no requests, so these are ignored.
    case response

    /// Classifies one JSON value per the JSON-RPC 2.0 rules.
    public init(_ value: JSONValue) {
        guard case .object = value else {
            self = .invalid(id: .null, error: .invalidRequest("a request must be a JSON object, not \(value.typeName)"))
            return
        }
        // Recover the id when it is readable, so the client can match the error to its request.
        var id: RequestID? = nil
        if let rawID = value["id"] {
            guard let parsed = RequestID(rawID) else {
                self = .invalid(id: .null, error: .invalidRequest("id must be a string, a number or null, not \(rawID.typeName)"))
                return
            }
            id = parsed
        }
        guard value["jsonrpc"] == .string("2.0") else {
            self = .invalid(id: id ?? .null, error: .invalidRequest(#"jsonrpc must be the string "2.0""#))
            return
        }
        guard let methodValue = value["method"] else {
            if value["result"] != nil || value["error"] != nil {
                self = .response
            } else {
                self = .invalid(id: id ?? .null, error: .invalidRequest("method is missing"))
            }
            return
        }
        guard case .string(let method) = methodValue else {
            self = .invalid(id: id ?? .null, error: .invalidRequest("method must be a string"))
            return
        }
        let params = value["params"]
        switch params {
        case nil, .object?, .array?: break
        default:
            self = .invalid(id: id ?? .null, error: .invalidRequest("params must be an object or an array"))
            return
        }
        self = .request(Request(id: id, method: method, params: params))
    }
}
