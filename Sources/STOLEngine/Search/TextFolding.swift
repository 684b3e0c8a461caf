import Foundation

/// The one normalisation used wherever names are compared: lower case, no diacritics, single
/// spaces, underscores as spaces (MDD writes `Panthera_leo`).
public enum TextFolding {
    public static func fold(_ text: String) -> String {
        // Most names are ASCII; folding them byte by byte avoids ICU, which dominates big builds.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return foldASCII(text) }
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var out = ""
        out.reserveCapacity(folded.utf8.count)
        var pendingSpace = false
        for scalar in folded.unicodeScalars {
            if scalar == "_" || CharacterSet.whitespacesAndNewlines.contains(scalar) {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace { out.append(" "); pendingSpace = false }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    /// Lower case, `_`, tabs and newlines as spaces, runs of spaces collapsed, ends trimmed.
    static func foldASCII(_ text: String) -> String {
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "_"), 0x09...0x0D:
                pendingSpace = !out.isEmpty
            default:
                if pendingSpace {
                    out.append(UInt8(ascii: " "))
                    pendingSpace = false
                }
                out.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
