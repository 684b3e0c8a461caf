import Foundation

/// What a method handler may know and do besides reading its params.
public struct RequestContext: Sendable {
    /// The request's id; nil for a notification.
    public let id: RequestID?
    public let method: String
    /// Present only when the client passed `params._meta.progressToken`.
    public let progress: ProgressReporter?
    let output: OutputWriter

    /// Sends a notification to the client, such as `favorites/didChange`.
    public func notify(_ method: String, _ params: JSONValue) {
        output.send(Notification.encode(method: method, params: params))
    }

    /// Sends a notification whose params are any `Encodable` value.
    public func notify<P: Encodable>(_ method: String, encoding params: P) throws {
        output.send(Notification.encode(method: method, rawParams: try ResultEncoding.encode(params)))
    }
}

/// Encodes server-to-client notifications.
public enum Notification {
    /// A notification; `.null` params are left out, as JSON-RPC has no null params.
    public static func encode(method: String, params: JSONValue) -> [UInt8] {
        encode(method: method, rawParams: params == .null ? nil : JSONWriter.encode(params))
    }

    static func encode(method: String, rawParams: [UInt8]?) -> [UInt8] {
        var out = Array(#"{"jsonrpc":"2.0","method":"#.utf8)
        JSONWriter.writeString(method, into: &out)
        if let rawParams {
            out.append(contentsOf: #","params":"#.utf8)
            out.append(contentsOf: rawParams)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }
}
