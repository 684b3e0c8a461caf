import Foundation

/// The one normalisation used wherever names are compared: lower case, no diacritics, single
/// spaces, underscores as spaces (MDD writes `Panthera_leo`).
public enum TextFolding {
    public static func fold(_ text: String) -> String {
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
}
