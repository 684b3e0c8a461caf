import Foundation
import STOLJSON
import STOLProtocol

/// Decodes params into handler types, turning decoding failures into -32602 errors that name the field.
public enum ParamsDecoding {
    /// Decodes `params` into `P`, turning decoding failures into `-32602` naming the field; the
    /// ranges of a `BoundedParams` type are checked first.
    public static func decode<P: Decodable>(_ type: P.Type, from params: JSONValue?) throws(RPCError) -> P {
        let value = params ?? .object([])
        guard case .object = value else {
            throw .invalidParams(field: nil, "params must be an object with named fields")
        }
        if let bounded = P.self as? any BoundedParams.Type { try IntegerBounds.check(value, bounded.integerBounds) }
        do {
            return try JSONValueDecoder().decode(P.self, from: value)
        } catch let error as DecodingError {
            throw describe(error)
        } catch let error as RPCError {
            throw error
        } catch {
            throw .invalidParams(field: nil, "\(error)")
        }
    }

    static func describe(_ error: DecodingError) -> RPCError {
        func path(_ keys: [any CodingKey]) -> String? {
            let parts = keys.map { $0.intValue.map(String.init) ?? $0.stringValue }
            return parts.isEmpty ? nil : parts.joined(separator: ".")
        }
        switch error {
        case let .keyNotFound(key, context):
            return .invalidParams(field: path(context.codingPath + [key]), "is required")
        case let .valueNotFound(type, context):
            return .invalidParams(field: path(context.codingPath), "must be \(describe(type)), not null")
        case let .typeMismatch(type, context):
            return .invalidParams(field: path(context.codingPath), "must be \(describe(type))")
        case let .dataCorrupted(context):
            if let underlying = context.underlyingError as? RPCError { return underlying }
            let detail = context.debugDescription.isEmpty ? "is not valid" : context.debugDescription
            return .invalidParams(field: path(context.codingPath), detail)
        @unknown default:
            return .invalidParams(field: nil, "\(error)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is any BinaryInteger.Type: "an integer"
        case is any BinaryFloatingPoint.Type: "a number"
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is any DecodedArray.Type: "an array"
        case is any DecodedObject.Type: "an object"
        default: "a " + String(describing: type).lowercased()
        }
    }
}

/// Marks every array type, so an error names it "an array" whatever its elements
/// (`[Any].Type` does not match `Array<JSONValue>.Type`).
private protocol DecodedArray {}
extension Array: DecodedArray {}

/// Marks every dictionary type, so an error names it "an object".
private protocol DecodedObject {}
extension Dictionary: DecodedObject {}
