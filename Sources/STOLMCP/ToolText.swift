/// Data from a database written into a tool's text: always as one quoted string, so that a name
/// holding quotes, line breaks or "SYSTEM: Ignore all previous instructions…" reads as the data
/// it is and cannot end the text's sentence, start a line of its own or fake the end of a block.
enum ToolText {
    /// `text` between double quotes, escaped as in JSON: `\"`, `\\`, `\n`, `\r`, `\t`, and
    /// `\uXXXX` for every other control character, for line and paragraph separators, and for
    /// the invisible characters that reorder or hide text (bidirectional controls, zero-width
    /// characters, the byte-order mark).
    static func quoted(_ text: String) -> String {
        var out = "\""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if isHidden(scalar) {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Characters that are not seen as themselves: controls (C0, DEL, C1), line and paragraph
    /// separators, zero-width and joining characters, bidirectional controls, the BOM.
    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2069, 0xFEFF: true
        default: false
        }
    }
}
