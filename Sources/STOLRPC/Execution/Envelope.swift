import STOLJSON
import STOLProtocol
/// Writes the JSON-RPC 2.0 envelopes the server sends: responses, error responses and
/// notifications (progress included). The one place that knows their shape.
public enum Envelope {
    /// `{"jsonrpc":"2.0","id":…,"result":…}` around an already encoded result.
    public static func response(id: RequestID, result: [UInt8]) -> [UInt8] {
        var out = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
        JSONWriter.write(id.json, into: &out)
        out.append(contentsOf: #","result":"#.utf8)
        out.append(contentsOf: result)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `{"jsonrpc":"2.0","id":…,"error":{…}}`.
    public static func response(id: RequestID, error: RPCError) -> [UInt8] {
        var out = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
        JSONWriter.write(id.json, into: &out)
        out.append(contentsOf: #","error":"#.utf8)
        JSONWriter.write(error.json, into: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// A notification around already encoded params; nil params are left out.
    public static func notification(method: String, rawParams: [UInt8]?) -> [UInt8] {
        var out = Array(#"{"jsonrpc":"2.0","method":"#.utf8)
        JSONWriter.writeString(method, into: &out)
        if let rawParams {
            out.append(contentsOf: #","params":"#.utf8)
            out.append(contentsOf: rawParams)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// A notification; `.null` params are left out, as JSON-RPC has no null params.
    public static func notification(method: String, params: JSONValue) -> [UInt8] {
        notification(method: method, rawParams: params == .null ? nil : JSONWriter.encode(params))
    }

    /// A typed notification; one whose params encode to nothing (`{}`) has no params.
    public static func notification<N: RPCNotification>(_ notification: N) -> [UInt8] {
        let params = (try? JSONEncoding.encode(notification)) ?? Array("{}".utf8)
        return Self.notification(method: N.method, rawParams: params == Array("{}".utf8) ? nil : params)
    }

    /// Joins finished responses into one batch answer, `[…,…]`.
    static func batch(_ responses: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(responses.reduce(2) { $0 + $1.count + 1 })
        for (i, response) in responses.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: response)
        }
        out.append(UInt8(ascii: "]"))
        return out
    }
}
