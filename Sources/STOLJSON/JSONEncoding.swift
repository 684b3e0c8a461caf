import Foundation

/// Turns `Encodable` values into compact JSON bytes: the one encoding of results, params and
/// notifications, on either side of the protocol.
public enum JSONEncoding {
    /// `value` as compact JSON: `JSONValue` and `JSONWritable` write their own bytes; anything
    /// else goes through `JSONEncoder` with sorted keys, U+2028 and U+2029 escaped.
    public static func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        if let json = value as? JSONValue { return JSONWriter.encode(json) }
        if let writable = value as? any JSONWritable {
            var out: [UInt8] = []
            out.reserveCapacity(256)
            writable.writeJSON(into: &out)
            return out
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        var bytes = [UInt8](try encoder.encode(value))
        JSONWriter.escapeLineSeparators(&bytes)
        return bytes
    }

    /// `value` as a `JSONValue`, as `encode(_:)` would write it.
    public static func value<Value: Encodable>(of value: Value) throws -> JSONValue {
        try JSONParser.parse(try encode(value))
    }
}

/// A value that is already encoded JSON, written as it is.
public struct RawJSON: JSONWritable, Decodable, Hashable, Sendable {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads any JSON value and keeps it in its compact form.
    public init(from decoder: any Decoder) throws {
        bytes = JSONWriter.encode(try JSONValue(from: decoder))
    }

    public func writeJSON(into out: inout [UInt8]) {
        out.append(contentsOf: bytes)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(try JSONParser.parse(bytes))
    }
}
