/// Reading a JSON number's literal text exactly.
public enum JSONNumber {
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
