import STOLJSON
/// A request id as the client wrote it: a string, a number (kept verbatim) or null.
public enum RequestID: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case number(String)
    case null

    /// Reads an id from a JSON value; objects, arrays and booleans are not ids.
    public init?(_ value: JSONValue) {
        switch value {
        case .string(let s): self = .string(s)
        case .number(let n): self = .number(n)
        case .null: self = .null
        default: return nil
        }
    }

    /// The id as a JSON value, ready to be echoed.
    public var json: JSONValue {
        switch self {
        case .string(let s): .string(s)
        case .number(let n): .number(n)
        case .null: .null
        }
    }

    public var description: String { json.description }
}

extension RequestID: Codable {
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        guard let id = RequestID(value) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "an id must be a string, a number or null"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }
}
