import STOLJSON

/// Params whose integer members have a range.
///
/// The engine's params decoding checks every such member before the type decodes, so that a number
/// out of range is answered as out of range whatever its size (`12345678901234567890` fits no Swift
/// integer, and would otherwise be "not an integer"), with one message that names the range; and
/// `OpenRPCDocument` writes each range into the member's schema as `minimum` and `maximum`, so the
/// document gives the bounds the engine enforces.
public protocol BoundedParams: Decodable {
    /// The range of each bounded member, by path: a member name (`limit`), then `*` for every
    /// element of an array (`taxonIds.*`, `pairs.*.*`).
    static var integerBounds: [String: ClosedRange<Int64>] { get }
}

/// The check behind `BoundedParams`.
public enum IntegerBounds {
    /// The detail of the error for a value outside `range`.
    public static func outOfRange(_ range: ClosedRange<Int64>) -> String {
        "is out of range: must be an integer from \(range.lowerBound) to \(range.upperBound)"
    }

    /// Throws `-32602` naming the first member of `params` (by its concrete path, `pairs.3.1`)
    /// whose integral value lies outside its range. Values that are not integral numbers are left
    /// to the decoder, which says what they must be.
    public static func check(_ params: JSONValue, _ bounds: [String: ClosedRange<Int64>]) throws(RPCError) {
        for (path, range) in bounds.sorted(by: { $0.key < $1.key }) {
            try check(params, path.split(separator: ".").map(String.init)[...], at: [], range)
        }
    }

    private static func check(_ value: JSONValue, _ rest: ArraySlice<String>, at path: [String], _ range: ClosedRange<Int64>) throws(RPCError) {
        guard let step = rest.first else {
            guard case .number(let text) = value else { return }
            switch JSONNumber.integer(text) {
            case .notIntegral: return
            case .exact(let n) where range.contains(n): return
            case .exact, .beyondInt64: throw RPCError.invalidParams(field: path.joined(separator: "."), outOfRange(range))
            }
        }
        if step == "*" {
            guard case .array(let elements) = value else { return }
            for (i, element) in elements.enumerated() { try check(element, rest.dropFirst(), at: path + [String(i)], range) }
        } else if let member = value[step] {
            try check(member, rest.dropFirst(), at: path + [step], range)
        }
    }
}

extension RPCRequest {
    /// The ranges of this request's integer params (`BoundedParams`); empty when it declares none.
    public static var paramsBounds: [String: ClosedRange<Int64>] {
        (Self.self as? any BoundedParams.Type)?.integerBounds ?? [:]
    }
}
