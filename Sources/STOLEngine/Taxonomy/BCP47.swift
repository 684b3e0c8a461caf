import Foundation

/// Language tags as the protocol takes them (`lang` params, name languages).
package enum BCP47 {
    /// A loose BCP-47 check: `en`, `es`, `pt-BR`, `zh-Hans`.
    package static func isLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isLowercase && $0.isASCII }) else { return false }
        return parts.dropFirst().allSatisfy { (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    /// `tag` in the form the engine stores and compares, or nil when it is no language tag: the
    /// forms an operating system hands an app are taken as they come. Case is ignored and `_`
    /// separates like `-` (`EN` → `en`, `de_DE` → `de-DE`, `zh_hant_tw` → `zh-Hant-TW`: the
    /// language in lower case, a script in title case, a region in upper case); a POSIX locale's
    /// code set and modifier are dropped (`de_DE.UTF-8`, `ca_ES@valencia` → `ca-ES`), and `C` and
    /// `POSIX` (no locale) are English.
    package static func canonical(_ tag: String) -> String? {
        var text = Substring(tag.trimmingCharacters(in: .whitespaces))
        if let end = text.firstIndex(where: { $0 == "." || $0 == "@" }) { text = text[..<end] }
        if text == "C" || text == "POSIX" { return "en" }
        let parts = text.split(omittingEmptySubsequences: false) { $0 == "-" || $0 == "_" }
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        var out = language.lowercased()
        for part in parts.dropFirst() {
            guard (1...8).contains(part.count), part.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
            out += "-"
            switch part.count {
            case 4 where part.allSatisfy(\.isLetter): out += part.prefix(1).uppercased() + part.dropFirst().lowercased()
            case 2 where part.allSatisfy(\.isLetter): out += part.uppercased()
            default: out += part.lowercased()
            }
        }
        return out
    }
}
