import STOLJSON
import STOLProtocol

/// One message from the engine, as a client sorts it: the answer to one of its requests, or a
/// notification. Anything else (a batch answer, a malformed line) is `other`.
enum ServerMessage {
    case response(id: RequestID, outcome: Result<JSONValue, RPCError>)
    case notification(method: String, params: JSONValue?)
    case other

    init(_ value: JSONValue) {
        guard case .object = value else {
            self = .other
            return
        }
        if let method = value["method"]?.stringValue {
            self = value["id"] == nil ? .notification(method: method, params: value["params"]) : .other
            return
        }
        guard let raw = value["id"], let id = RequestID(raw) else {
            self = .other
            return
        }
        if let error = value["error"] {
            let decoded = (try? JSONValueDecoder().decode(RPCError.self, from: error))
                ?? RPCError(code: ErrorCode.internalError, message: "an error the client cannot read", data: error)
            self = .response(id: id, outcome: .failure(decoded))
        } else {
            self = .response(id: id, outcome: .success(value["result"] ?? .null))
        }
    }
}
