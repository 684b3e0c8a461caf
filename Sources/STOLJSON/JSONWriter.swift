/// Serialises JSON compactly, on one line: no raw newline ever appears, and U+2028/U+2029 are
/// escaped so that JavaScript line readers cannot split a message.
public enum JSONWriter {
    /// The compact UTF-8 encoding of `value`.
    public static func encode(_ value: JSONValue) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(64)
        write(value, into: &out)
        return out
    }

    /// Appends the encoding of `value` to `out`.
    public static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.utf8)
        case .string(let s): writeString(s, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(member.value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The one way a `Double` is written, as `JSONEncoder` writes it: Swift's shortest
    /// round-trip form without a trailing `.0` (`1`, `0.85`, `1e+16`). It must be finite: JSON
    /// has no infinities or NaN.
    public static func numberText(_ value: Double) -> String {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// Appends `string` as a quoted, escaped JSON string.
    public static func writeString(_ string: String, into out: inout [UInt8]) {
        writeString(string, documentForm: false, into: &out)
    }

    /// Appends `string` quoted and escaped. The protocol form escapes U+2028 and U+2029 and
    /// writes other controls as `\u00XX`; the document form (`formatted`) writes `\b` and `\f`
    /// and keeps U+2028 and U+2029, as Python's `json.dumps` does.
    static func writeString(_ string: String, documentForm: Bool, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings need no escape at all: copied whole.
        let copied = string.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0xE2 }) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if copied == true {
            out.append(UInt8(ascii: "\""))
            return
        }
        // Byte by byte: everything but quotes, backslashes, controls and U+2028/U+2029 is copied.
        // The string is valid UTF-8, so 0xE2 always leads a three-byte sequence.
        var utf8 = string.utf8.makeIterator()
        while let byte = utf8.next() {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
            case 0x08 where documentForm: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C where documentForm: out.append(contentsOf: #"\f"#.utf8)
            case 0..<0x20:
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0xF))
            case 0xE2 where !documentForm:
                let second = utf8.next() ?? 0, third = utf8.next() ?? 0
                if second == 0x80, third == 0xA8 || third == 0xA9 {
                    out.append(contentsOf: (third == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8)
                } else {
                    out.append(contentsOf: [byte, second, third])
                }
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Rewrites raw U+2028/U+2029 in already-encoded JSON (from `JSONEncoder`) as escapes.
    ///
    /// In valid JSON these characters can only occur inside strings, so a byte-level rewrite is safe.
    public static func escapeLineSeparators(_ bytes: inout [UInt8]) {
        guard bytes.count >= 3 else { return }
        var i = 0
        var found = false
        while i + 2 < bytes.count {
            if bytes[i] == 0xE2, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9 {
                found = true
                break
            }
            i += 1
        }
        guard found else { return }
        var out = [UInt8]()
        out.reserveCapacity(bytes.count + 8)
        i = 0
        while i < bytes.count {
            if i + 2 < bytes.count, bytes[i] == 0xE2, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9 {
                out.append(contentsOf: (bytes[i + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        bytes = out
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
