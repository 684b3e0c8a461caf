import Foundation

/// A user's search text, parsed into terms that are always quoted before they reach FTS5, so
/// quotes, `*`, `-`, `^`, parentheses, `AND`/`OR`/`NOT`/`NEAR` and column filters are plain text.
///
/// A bare word is a prefix (`panth` finds Panthera); several words must all match; text in
/// double quotes is a phrase; an unbalanced quote is ignored.
public struct SearchQuery: Sendable, Equatable {
    public enum Term: Sendable, Equatable {
        case prefix(String)
        case phrase([String])
    }

    /// Longest query accepted, in characters.
    public static let maxLength = 200

    public let terms: [Term]
    /// The query as typed.
    public let text: String
    /// The whole query folded (quotes removed), for exact and name-prefix matching and typos.
    public let folded: String

    /// Parses `text`; nil for an empty or blank query. Throws when it is too long.
    public static func parse(_ text: String) throws(SearchQueryError) -> SearchQuery? {
        guard text.count <= maxLength else {
            throw .tooLong(maximum: maxLength)
        }
        var terms: [Term] = []
        let quoteCount = text.filter { $0 == "\"" }.count
        // With an odd number of quotes the last one is unbalanced: treat it as text (drop it).
        var segments = text.split(separator: "\"", omittingEmptySubsequences: false).map(String.init)
        if quoteCount % 2 == 1, segments.count >= 2 {
            let last = segments.removeLast()
            segments[segments.count - 1] += " " + last
        }
        for (index, segment) in segments.enumerated() {
            let tokens = tokenize(segment)
            guard !tokens.isEmpty else { continue }
            if index % 2 == 1, tokens.count > 1 {
                terms.append(.phrase(tokens))
            } else {
                terms += tokens.map(Term.prefix)
            }
        }
        guard !terms.isEmpty else { return nil }
        let folded = TextFolding.fold(text.replacingOccurrences(of: "\"", with: " "))
        return SearchQuery(terms: terms, text: text, folded: folded)
    }

    /// Every token of the query, in order.
    public var tokens: [String] {
        terms.flatMap { term -> [String] in
            switch term {
            case .prefix(let t): [t]
            case .phrase(let ts): ts
            }
        }
    }

    /// The FTS5 MATCH expression: every term quoted, bare words as prefixes, all terms ANDed.
    public var ftsExpression: String {
        terms.map { term in
            switch term {
            case .prefix(let token): "\"\(token)\"*"
            case .phrase(let tokens): "\"\(tokens.joined(separator: " "))\""
            }
        }.joined(separator: " ")
    }

    /// Every term as whole words: bare words exact, phrases as phrases.
    public var wholeWordExpression: String {
        terms.map { term in
            switch term {
            case .prefix(let token): "\"\(token)\""
            case .phrase(let tokens): "\"\(tokens.joined(separator: " "))\""
            }
        }.joined(separator: " ")
    }

    /// Bare words or any of their singular and plural forms (`Inflection.forms`) that `keeping`
    /// accepts (a form that is no term of the full-text index finds nothing there); nil when no
    /// word has other forms.
    public func inflectedExpression(keeping: (String) -> Bool = { _ in true }) -> String? {
        var any = false
        let parts = terms.map { term -> String in
            switch term {
            case .prefix(let token):
                let forms = Inflection.forms(token).filter(keeping).sorted()
                guard !forms.isEmpty else { return "\"\(token)\"" }
                any = true
                return "(" + ([token] + forms).map { "\"\($0)\"" }.joined(separator: " OR ") + ")"
            case .phrase(let tokens): return "\"\(tokens.joined(separator: " "))\""
            }
        }
        return any ? parts.joined(separator: " AND ") : nil
    }

    /// The folded query and, when it is plain words, the same words with any of them in another
    /// number (`lions` → "lion", `house mice` → "house mouse"): the whole names an
    /// `exact-inflected` match may have; otherwise its words without the rest (`lion)` → "lion").
    /// At most `wholeNameFormCap` of them.
    public var wholeNameForms: [String] {
        let words = tokens
        guard words.joined(separator: " ") == folded else { return [folded, words.joined(separator: " ")] }
        var out: [String] = [""]
        for (index, word) in words.enumerated() {
            let forms = [word] + Inflection.forms(word).sorted()
            var next: [String] = []
            // The first `wholeNameFormCap` of the product, in the same order, without building the rest.
            combining: for prefix in out {
                for form in forms {
                    next.append(index == 0 ? form : prefix + " " + form)
                    if next.count == Self.wholeNameFormCap { break combining }
                }
            }
            out = next
        }
        return out
    }

    /// Most whole-name forms looked up for one query.
    static let wholeNameFormCap = 64

    /// For word-internal matches: per word of three letters or more, the word and its singulars of
    /// four letters or more (a compound's head: `Mäuse` in "Hausmaus"), any of which may lie inside
    /// a word of the name; empty when no word is that long.
    public var substrings: [[String]] {
        tokens.filter { $0.count >= 3 }.map { token in
            var singulars: Set<String> = []
            for lang in Inflection.languages { singulars.formUnion(Inflection.lemmas(token, lang: lang).filter { $0.count >= 4 }) }
            singulars.insert(token)
            return singulars.sorted()
        }
    }

    /// Folded words made of letters and digits; everything else separates words.
    static func tokenize(_ text: String) -> [String] {
        words(ofFolded: TextFolding.fold(text))
    }

    /// The first of `words(ofFolded:)`, without splitting the rest.
    static func firstWord(ofFolded folded: String) -> String? {
        let bytes = folded.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return words(ofFolded: folded).first }
        guard let start = bytes.firstIndex(where: isWordByte) else { return nil }
        let end = bytes[start...].firstIndex { !isWordByte($0) } ?? bytes.endIndex
        return String(folded[start..<end])
    }

    /// Whether an ASCII byte is a letter or digit (a byte of a word in `words(ofFolded:)`).
    static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// The words of text already folded (`tokenize` without folding again); ASCII text, most
    /// names, is split byte by byte.
    static func words(ofFolded folded: String) -> [String] {
        let bytes = folded.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            return folded.split { !($0.isLetter || $0.isNumber) }.map(String.init)
        }
        var out: [String] = []
        var start: String.Index?
        var index = bytes.startIndex
        while index != bytes.endIndex {
            if isWordByte(bytes[index]) {
                if start == nil { start = index }
            } else if let first = start {
                out.append(String(folded[first..<index]))
                start = nil
            }
            index = bytes.index(after: index)
        }
        if let first = start { out.append(String(folded[first...])) }
        return out
    }
}

/// Why a query cannot be searched.
public enum SearchQueryError: Error, Sendable, Equatable {
    /// Longer than `SearchQuery.maxLength` characters.
    case tooLong(maximum: Int)
}
