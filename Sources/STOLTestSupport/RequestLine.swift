import STOLJSON
import STOLProtocol

/// One protocol line built from a contract, for the tests that write many requests at once or
/// in one read (streams, batches, back-pressure): `{"jsonrpc":"2.0","id":…,"method":…,"params":…}`.
public enum RequestLine {
    /// `request` with `id` (and `progressToken` in `params._meta`), without a newline.
    public static func encode<R: RPCRequest>(_ request: R, id: JSONValue, progressToken: JSONValue? = nil) -> String {
        var params = (try? JSONEncoding.value(of: request)) ?? .object([])
        if let progressToken, case .object(var members) = params {
            members.append((key: "_meta", value: .object(["progressToken": progressToken])))
            params = .object(members)
        }
        var message: [(key: String, value: JSONValue)] = [("jsonrpc", "2.0"), ("id", id), ("method", .string(R.method))]
        if params != .object([]) { message.append(("params", params)) }
        return JSONValue.object(message).description
    }

    /// `notification` as a line, without a newline.
    public static func encode<N: RPCNotification>(_ notification: N) -> String {
        var message: [(key: String, value: JSONValue)] = [("jsonrpc", "2.0"), ("method", .string(N.method))]
        if let params = try? JSONEncoding.value(of: notification), params != .object([]) { message.append(("params", params)) }
        return JSONValue.object(message).description
    }
}
