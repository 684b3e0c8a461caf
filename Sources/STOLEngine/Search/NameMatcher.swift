import Foundation

/// Decides how one name matches a query: its tier and the facts that order names within a tier.
/// Candidates come from the indexes; this is the one place that judges them, so every index path
/// ranks the same way.
struct NameMatcher: Sendable {
    /// How a name matched.
    struct Match: Sendable {
        var tier: MatchTier
        /// The query is the name's last word(s), as in "Asian elephant" (English head nouns).
        var atEnd = false
        /// The name starts with the query's first word.
        var atStart = false
        /// The query has accents and this name lacks them (`Bär` against "Bar commun").
        var accentMismatch = false
    }

    let folded: String
    let tokens: [String]
    let phrases: [[String]]
    /// The query lower-cased with its accents kept, for accent-exact matches.
    let lower: String
    /// `lower` when it has accents.
    let accented: String?
    /// The query's words that carry accents, as typed (lower case) and folded.
    let accentedTokens: [(typed: String, folded: String)]
    /// Inflected forms are only tried for words of three letters or more.
    let inflectable: [Bool]
    /// Per query word, its singulars in each language with plurals (the word itself included),
    /// computed once rather than per name.
    let queryLemmas: [[String: Set<String>]]

    init(_ query: SearchQuery) {
        folded = query.folded
        tokens = query.tokens
        phrases = query.terms.compactMap { term in
            if case .phrase(let words) = term { return words }
            return nil
        }
        lower = query.text.replacingOccurrences(of: "\"", with: " ").lowercased()
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        accented = lower.unicodeScalars.contains { $0.value >= 0x80 } ? lower : nil
        accentedTokens = accented.map { text in
            text.split { !($0.isLetter || $0.isNumber) }.map(String.init).filter { $0.unicodeScalars.contains { $0.value >= 0x80 } }
                .map { ($0, TextFolding.fold($0)) }
        } ?? []
        inflectable = tokens.map { $0.count >= 3 }
        queryLemmas = tokens.map { token in
            Dictionary(uniqueKeysWithValues: Inflection.languages.map { ($0, Inflection.lemmas(token, lang: $0)) })
        }
    }

    /// The match of one name (`name` as stored, `nameFolded` folded), or nil when the name alone
    /// does not hold every query word.
    func match(name: String, nameFolded: String, lang: String?) -> Match? {
        var result: Match
        if nameFolded == folded {
            let same = name.lowercased() == lower
            result = Match(tier: same ? .exact : .exactFolded, atEnd: true, atStart: true)
        } else {
            let words = SearchQuery.words(ofFolded: nameFolded)
            for phrase in phrases where SearchService.position(of: phrase, in: words) == nil { return nil }
            let primary = Inflection.primary(lang)
            var worst = MatchTier.exact
            for i in tokens.indices {
                guard let best = relation(token: i, words: words, primary: primary) else { return nil }
                worst = max(worst, best)
            }
            result = Match(tier: worst)
            // The whole name with the query's plurals in the singular (`lions` → "Lion"; not
            // `elephant` → "Elephants", which stays an inflection).
            if worst == .inflected, words.count == tokens.count, let primary,
                tokens.indices.allSatisfy({ words[$0] == tokens[$0] || (queryLemmas[$0][primary]?.contains(words[$0]) == true && words[$0] != tokens[$0]) }) {
                result.tier = .exactInflected
            }
            if let first = tokens.first, let firstWord = words.first {
                result.atStart = firstWord.hasPrefix(first) || inflected(0, firstWord, primary: primary)
            }
            if let last = tokens.last, let lastWord = words.last {
                result.atEnd = lastWord == last || inflected(tokens.count - 1, lastWord, primary: primary)
                    || (worst == .wordInternal && lastWord.hasSuffix(last))
            }
        }
        // A name that holds an accented query word once folded but not as typed lacks its
        // accents. Inflections may change accents (Wolf, Wölfe), so they are not held to them.
        if accented != nil, result.tier != .exact, result.tier != .inflected, result.tier != .exactInflected {
            let lower = name.lowercased()
            result.accentMismatch = accentedTokens.contains { nameFolded.contains($0.folded) && !lower.contains($0.typed) }
        }
        return result
    }

    /// The best relation of query word `i` to any of `words` (of a name in language `primary`):
    /// whole word, inflected, prefix or word-internal; nil when none holds it.
    func relation(token i: Int, words: [String], primary: String?) -> MatchTier? {
        let token = tokens[i]
        var best: MatchTier?
        for word in words {
            let relation: MatchTier?
            if word == token {
                return .wholeWord
            } else if inflectable[i], inflected(i, word, primary: primary) {
                relation = .inflected
            } else if word.hasPrefix(token) {
                relation = .prefix
            } else if token.count >= 3, Self.holdsInside(word, token) || compoundHead(i, of: word, primary: primary), !holdsOtherToken(word, besides: i) {
                relation = .wordInternal
            } else {
                relation = nil
            }
            if let relation, best == nil || relation < best! { best = relation }
        }
        return best
    }

    /// Whether `word` holds `token` as a word-internal match: anywhere from four letters, at its
    /// end for three (a compound's head: `Bär` in "Eisbär", not `leo` in "oleosa").
    static func holdsInside(_ word: String, _ token: String) -> Bool {
        token.count > 3 ? contains(word, token) : word.hasSuffix(token)
    }

    /// Whether `word` starts with or holds a query word other than word `i`: such a word is not a
    /// compound of word `i` (`Loepantheraea` holds neither `panthera` nor `loe` of
    /// `Panthera loe`).
    func holdsOtherToken(_ word: String, besides i: Int) -> Bool {
        tokens.indices.contains { $0 != i && Self.contains(word, tokens[$0]) }
    }

    /// For a taxon none of whose names holds the whole query: the worst over query words of each
    /// word's best relation to any of the names (`names` as folded text and language).
    /// Nil when some query word matches none of them.
    func spread(names: [(folded: String, lang: String?)]) -> MatchTier? {
        let split = names.map { (SearchQuery.words(ofFolded: $0.folded), Inflection.primary($0.lang)) }
        var worst = MatchTier.exact
        for i in tokens.indices {
            guard let best = split.compactMap({ relation(token: i, words: $0.0, primary: $0.1) }).min() else { return nil }
            worst = max(worst, best)
        }
        return worst
    }

    /// Whether query word `i` and `word` are one word in two numbers in language `primary`
    /// (`Inflection.areInflections`).
    func inflected(_ i: Int, _ word: String, primary: String?) -> Bool {
        let token = tokens[i]
        guard word != token, let primary, let singulars = queryLemmas[i][primary],
            token.first == word.first, abs(token.count - word.count) <= 5
        else { return false }
        return !singulars.isDisjoint(with: Inflection.lemmas(word, lang: primary))
    }

    /// Whether a singular of query word `i` (four letters or more) ends the compound `word`
    /// (`Mäuse` in "Hausmaus").
    func compoundHead(_ i: Int, of word: String, primary: String?) -> Bool {
        guard let primary, let singulars = queryLemmas[i][primary] else { return false }
        return singulars.contains { $0.count >= 4 && $0 != word && word.hasSuffix($0) }
    }

    /// Whether `text` holds `part`, compared as UTF-8 bytes (both folded the same way), without
    /// Foundation's locale-aware search.
    static func contains(_ text: String, _ part: String) -> Bool {
        let haystack = text.utf8, needle = part.utf8
        guard let first = needle.first else { return true }
        guard haystack.count >= needle.count else { return false }
        var start = haystack.startIndex
        let last = haystack.index(haystack.endIndex, offsetBy: -needle.count)
        while start <= last {
            if haystack[start] == first, haystack[start...].starts(with: needle) { return true }
            start = haystack.index(after: start)
        }
        return false
    }
}
