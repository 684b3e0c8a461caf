/// Params whose integer members have a range.
///
/// `ResultEncoding.decodeParams` checks every such member before the type decodes, so that a number
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
            switch integer(text) {
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

    /// What a JSON number's text stands for, as an integer.
    public enum Integer: Equatable, Sendable {
        case exact(Int64)
        /// Integral, but beyond `Int64` (and so beyond every range).
        case beyondInt64
        /// Has a fraction (`1.5`, `1e-3`).
        case notIntegral
    }

    /// Reads `text` (a JSON number) exactly, exponents and fractions included: `3.0` and `3e2` are
    /// integers, `1e400` is one beyond `Int64`, `1.5` is not one.
    public static func integer(_ text: String) -> Integer {
        var utf8 = Substring(text).utf8[...]
        let negative = utf8.first == UInt8(ascii: "-")
        if negative { utf8 = utf8.dropFirst() }
        var digits: [UInt8] = []
        var fractionDigits = 0, exponent = 0, inFraction = false
        while let c = utf8.first {
            if c >= 0x30 && c <= 0x39 {
                digits.append(c - 0x30)
                if inFraction { fractionDigits += 1 }
            } else if c == UInt8(ascii: ".") {
                inFraction = true
            } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                let written = String(decoding: utf8.dropFirst(), as: UTF8.self)
                exponent = Int(written) ?? (written.hasPrefix("-") ? -Int.max : Int.max)  // beyond Int: clamped below
                break
            } else {
                return .notIntegral
            }
            utf8 = utf8.dropFirst()
        }
        // value = digits × 10^scale
        let scale = exponent.clamped(to: -1_000...1_000) - fractionDigits
        if scale < 0 {
            let dropped = digits.suffix(min(-scale, digits.count))
            guard dropped.allSatisfy({ $0 == 0 }) else { return .notIntegral }
            digits.removeLast(dropped.count)
        }
        guard let first = digits.firstIndex(where: { $0 != 0 }) else { return .exact(0) }
        digits.removeSubrange(..<first)
        if scale > 0 { digits += repeatElement(0, count: min(scale, 20)) }
        guard digits.count <= 19 else { return .beyondInt64 }
        var magnitude: UInt64 = 0
        for d in digits { magnitude = magnitude * 10 + UInt64(d) }
        if negative {
            return magnitude <= UInt64(Int64.max) + 1 ? .exact(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)) : .beyondInt64
        }
        return magnitude <= UInt64(Int64.max) ? .exact(Int64(magnitude)) : .beyondInt64
    }
}

private extension Int {
    func clamped(to range: ClosedRange<Int>) -> Int { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}

extension RPCMethod {
    /// The ranges of this method's integer params (`BoundedParams`); empty when it declares none.
    public static var paramsBounds: [String: ClosedRange<Int64>] {
        (Params.self as? any BoundedParams.Type)?.integerBounds ?? [:]
    }
}
