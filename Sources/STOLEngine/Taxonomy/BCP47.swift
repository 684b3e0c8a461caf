/// Language tags as the protocol takes them (`lang` params, name languages).
package enum BCP47 {
    /// A loose BCP-47 check: `en`, `es`, `pt-BR`, `zh-Hans`.
    package static func isLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isLowercase && $0.isASCII }) else { return false }
        return parts.dropFirst().allSatisfy { (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }
}
