import Foundation

/// An opaque cursor for search pages: the offset of the next page and a fingerprint of the
/// query, filters and language it belongs to, so a cursor from another search is refused.
enum SearchCursor {
    /// FNV-1a of the canonical query, filters and language: stable across runs (unlike `Hasher`).
    static func binding(query: String?, filters: SearchFilters, lang: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let canonical = [query ?? "\u{1}", filters.fingerprint, lang].joined(separator: "\u{0}")
        for byte in canonical.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    static func encode(_ offset: Int, binding: String) -> String { Data("s:\(offset):\(binding)".utf8).base64EncodedString() }

    static func decode(_ text: String, binding: String) -> Int? {
        guard let data = Data(base64Encoded: text), let string = String(data: data, encoding: .utf8) else { return nil }
        let parts = string.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "s", parts[2] == binding, let offset = Int(parts[1]), (0...SearchMethods.maxOffset).contains(offset)
        else { return nil }
        return offset
    }
}
