import Foundation

/// Decides how one name matches a query: its tier, whether a query word is the name's head, and
/// whether the match leaned on folding accents. Candidates come from the indexes; this is the one
/// place that judges them, so every index path ranks the same way.
///
/// A name's words are split into their compound parts where build-db split them (`NameStructure`):
/// a query word equal to a part is a whole word of the name (`Wal` in "Blau|wal"), one starting a
/// part a prefix.
struct NameMatcher: Sendable {
    /// How a name matched.
    struct Match: Sendable {
        var tier: MatchTier
        /// A query word matched the name's head (`NameStructure`): `elephant` in "Asian elephant",
        /// `Wal` in "Blauwal", `chat` in "Chat domestique" (not in "Puce du chat").
        var head = false
        /// The query has accents and this name holds its word only without them (`Bär` against
        /// "Bar commun", `Wölfe` against "wolves"): it ranks below the names that have them.
        var accentMismatch = false
        /// An accented query word matched a name that lacks it as typed (folded, or through a
        /// singular): a name in another language so matched is no match (`chêne` is no German `…chen`).
        var foldedOnly = false
        /// The name is its head alone (in its first item): "Bees", "Butterflies and moths"; not
        /// "leafcutter bees", nor "cat family", a family named after one of its members.
        var bare = false
        /// The name is two words, a `[typical]` word of its language (`Lexicon`) and the one query
        /// word, whole or in another number: "Common carp" for `carp`, "Dauphin commun" for
        /// `dauphin`, not "Gemeine Flor|fliege" for `Fliege`. It names the typical organism of its
        /// kind, which ranks as better known (`SearchScore`).
        var typical = false
        /// A one-word scientific name matched whole by a query typed without capitals: read as a
        /// word of the language, it ranks as a whole word (`armadillo` means the armadillos, not
        /// the woodlouse genus *Armadillo*; `panda` the giant panda, not the tree genus *Panda*).
        var uncapitalizedGenus = false
    }

    let folded: String
    let tokens: [String]
    let phrases: [[String]]
    /// The query lower-cased with its accents kept, for accent-exact matches.
    let lower: String
    /// The query is one word typed without capitals (`Match.uncapitalizedGenus`).
    let uncapitalizedWord: Bool
    /// `lower` when it has accents.
    let accented: String?
    /// The query's words that carry accents, as typed (lower case) and folded.
    let accentedTokens: [(typed: String, folded: String)]
    /// Inflected forms are only tried for words of three letters or more.
    let inflectable: [Bool]
    /// Per query word, its singulars in each language with plurals (the word itself included),
    /// computed once rather than per name.
    let queryLemmas: [[String: Set<String>]]
    /// Per query word, every form an inflection of it can take in any language
    /// (`Inflection.forms`): a name's word outside it is no inflection of the query word, which
    /// spares working out the word's singulars for nearly every word of every name judged.
    let queryForms: [Set<String>]
    /// Per query word, its length in characters.
    let tokenLengths: [Int]

    init(_ query: SearchQuery) {
        folded = query.folded
        tokens = query.tokens
        phrases = query.terms.compactMap { term in
            if case .phrase(let words) = term { return words }
            return nil
        }
        lower = query.text.replacingOccurrences(of: "\"", with: " ").lowercased()
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        uncapitalizedWord = query.tokens.count == 1 && !query.text.unicodeScalars.contains { $0.properties.isUppercase }
        accented = lower.unicodeScalars.contains { $0.value >= 0x80 } ? lower : nil
        accentedTokens = accented.map { text in
            text.split { !($0.isLetter || $0.isNumber) }.map(String.init).filter { $0.unicodeScalars.contains { $0.value >= 0x80 } }
                .map { ($0, TextFolding.fold($0)) }
        } ?? []
        inflectable = tokens.map { $0.count >= 3 }
        queryLemmas = tokens.map { token in
            Dictionary(uniqueKeysWithValues: Inflection.languages.map { ($0, Inflection.lemmas(token, lang: $0)) })
        }
        queryForms = tokens.map { Inflection.forms($0) }
        tokenLengths = tokens.map(\.count)
    }

    /// The match of one name, or nil when the name alone does not hold every query word. Whether
    /// the name is bare (`Match.bare`) is worked out only for a taxon above species, the one
    /// place it counts (`SearchService.Hit`).
    func match(_ name: CandidateName) -> Match? {
        let aboveSpecies = !(name.rank?.isSpeciesOrBelow ?? false)
        var found = match(name: name.name, nameFolded: name.folded, lang: name.lang, parts: name.wordParts, head: name.headWord, bareNeeded: aboveSpecies)
        if uncapitalizedWord, name.matchType == "scientific", let tier = found?.tier, tier <= .exactFolded { found?.uncapitalizedGenus = true }
        return found
    }

    /// The match of one name (`name` as stored, `nameFolded` folded, its words as compound
    /// `parts`, its `head`), or nil when the name alone does not hold every query word. With
    /// `bareNeeded` false, `Match.bare` is left false unless the name is the query.
    func match(name: String, nameFolded: String, lang: String?, parts: [[String]]? = nil, head: String? = nil, bareNeeded: Bool = true) -> Match? {
        var result: Match
        let primary = Inflection.primary(lang)
        let wordParts = parts ?? SearchQuery.words(ofFolded: nameFolded).map { [$0] }
        let words = wordParts.map { $0.joined() }
        if nameFolded == folded {
            let same = name.lowercased() == lower
            result = Match(tier: same ? .exact : .exactFolded, head: true, bare: true)
        } else if phrases.isEmpty, words == tokens {
            // The same words, punctuation aside (`lion)`, `dog rose` for "Dog-rose").
            result = Match(tier: .exactFolded, head: true, bare: true)
        } else {
            for phrase in phrases where SearchService.position(of: phrase, in: words) == nil { return nil }
            var worst = MatchTier.exact
            var isHead = false
            let nameHead = head ?? "\u{0}"
            for i in tokens.indices {
                guard let best = relation(token: i, words: wordParts, primary: primary, head: nameHead) else { return nil }
                worst = max(worst, best.tier)
                isHead = isHead || best.head
            }
            result = Match(tier: worst, head: isHead, bare: bareNeeded && isBare(nameFolded, parts: wordParts, words: words, primary: primary))
            result.typical = isHead && isTypical(parts: wordParts, primary: primary)
            // The whole name with the query's words in another number (`lions` → "Lion", `bear` →
            // "Bears", `house mice` → "House mouse").
            if worst == .inflected, words.count == tokens.count, primary != nil,
                tokens.indices.allSatisfy({ words[$0] == tokens[$0] || inflected($0, words[$0], primary: primary) }) {
                result.tier = .exactInflected
                result.bare = result.bare || words.count == 1
            }
        }
        // A name that holds an accented query word once folded but not as typed lacks its
        // accents. Inflections may change accents (Wolf, Wölfe; león, leones), so they are not
        // held to them, but in English, whose plurals keep the letters (`Wölfe` is no "wolves").
        if accented != nil, result.tier != .exact {
            let inflection = (result.tier == .inflected || result.tier == .exactInflected) && primary != "en"
            result.foldedOnly = !inflection && lacksAccents(name)
            result.accentMismatch = result.foldedOnly
        }
        return result
    }

    /// Whether a name of words as compound `parts`, in language `primary`, is a typical word and
    /// the one query word (`Match.typical`).
    func isTypical(parts: [[String]], primary: String?) -> Bool {
        guard tokens.count == 1, parts.count == 2, parts[0].count == 1, parts[1].count == 1 else { return false }
        let typical = Lexicon.of(primary).typical
        guard !typical.isEmpty, !typical.contains(tokens[0]) else { return false }
        let other = typical.contains(parts[0][0]) ? parts[1][0] : typical.contains(parts[1][0]) ? parts[0][0] : nil
        guard let other else { return false }
        return other == tokens[0] || (inflectable[0] && inflected(0, other, primary: primary))
    }

    /// Whether a name (folded, its words as compound `parts`, in language `primary`) is its head
    /// alone (`Match.bare`): its first item is one word, not split into parts ("Langschwanz|mäuse"
    /// is not); a typical word beside it does not count ("True seals", `Match.typical`). A list
    /// whose other items hold one of the lexicon's `[modifiers]` names more than the word's kind
    /// ("carps and others", "shorebirds & allies"), in languages that put the head last.
    func isBare(_ nameFolded: String, parts: [[String]], words: [String], primary: String?) -> Bool {
        guard (parts.first?.count ?? 1) <= 1 else { return false }
        if words.count <= 1 { return true }
        let length = NameStructure.firstItemLength(nameFolded, words: words)
        if length < words.count, !NameStructure.headFirst.contains(primary ?? ""),
           case let modifiers = Lexicon.of(primary).modifiers, words[length...].contains(where: modifiers.contains) {
            return false
        }
        if length <= 1 { return true }
        guard length == 2, parts.count >= 2, parts[1].count <= 1 else { return false }
        let typical = Lexicon.of(primary).typical
        return typical.contains(words[0]) != typical.contains(words[1])
    }

    /// Whether `name` (as stored) lacks an accented query word as typed.
    func lacksAccents(_ name: String) -> Bool {
        guard !accentedTokens.isEmpty else { return false }
        let lower = name.lowercased()
        return accentedTokens.contains { !lower.contains($0.typed) }
    }

    /// The best relation of query word `i` to a name of words `words` (each as its compound parts)
    /// in language `primary`, and whether it is to the name's `head`: whole word (or whole part),
    /// inflected, prefix or word-internal; nil when none holds it. Of two relations the better
    /// tier wins, whole words and inflections counting as one, then the head.
    func relation(token i: Int, words: [[String]], primary: String?, head: String) -> (tier: MatchTier, head: Bool)? {
        let token = tokens[i]
        var best: (tier: MatchTier, head: Bool)?
        func consider(_ tier: MatchTier, _ isHead: Bool) {
            guard let current = best else { best = (tier, isHead); return }
            let a = (Self.band(tier), isHead ? 0 : 1, tier.order), b = (Self.band(current.tier), current.head ? 0 : 1, current.tier.order)
            if a < b { best = (tier, isHead) }
        }
        for parts in words {
            let word = parts.count == 1 ? parts[0] : parts.joined()
            let headWord = NameStructure.isHead(parts, head: head, tokens: tokens)
            if word == token {
                consider(.wholeWord, headWord)
            } else if inflectable[i], inflected(i, word, primary: primary) {
                consider(.inflected, headWord)
            } else if word.hasPrefix(token) {
                // A prefix of a split word is of its head when it reaches into the head part.
                let reachesHead = parts.count == 1 || token.count > word.count - (parts.last?.count ?? 0)
                consider(.prefix, headWord && reachesHead)
            } else if tokenLengths[i] >= 3, Self.holdsInside(word, token, length: tokenLengths[i]) || compoundHead(i, of: word, primary: primary), !holdsOtherToken(word, besides: i) {
                consider(.wordInternal, headWord && (word.hasSuffix(token) || compoundHead(i, of: word, primary: primary)))
            }
            guard parts.count > 1 else { continue }
            for (position, part) in parts.enumerated() {
                let isHead = position == parts.count - 1 && headWord
                if part == token {
                    consider(.wholeWord, isHead)
                } else if inflectable[i], inflected(i, part, primary: primary) {
                    consider(.inflected, isHead)
                } else if position > 0, part.hasPrefix(token) {
                    consider(.prefix, isHead)
                }
            }
        }
        return best
    }

    /// Tiers that rank as one before the head decides (`SearchScore`): whole words and inflections.
    static func band(_ tier: MatchTier) -> Int {
        tier == .inflected ? MatchTier.wholeWord.order : tier.order
    }

    /// Whether `word` holds `token` as a word-internal match: anywhere from four letters, at its
    /// end for three (a compound's head: `Bär` in "Eisbär", not `leo` in "oleosa").
    static func holdsInside(_ word: String, _ token: String, length: Int? = nil) -> Bool {
        (length ?? token.count) > 3 ? contains(word, token) : word.hasSuffix(token)
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
        let split = names.map { (SearchQuery.words(ofFolded: $0.folded).map { [$0] }, Inflection.primary($0.lang)) }
        var worst = MatchTier.exact
        for i in tokens.indices {
            guard let best = split.compactMap({ relation(token: i, words: $0.0, primary: $0.1, head: "\u{0}")?.tier }).min() else { return nil }
            worst = max(worst, best)
        }
        return worst
    }

    /// Whether query word `i` and `word` are one word in two numbers in language `primary`
    /// (`Inflection.areInflections`). A word that is the query word and `-er` is its plural only
    /// when the query word has six letters or more (Nashorn, Nashörner): `panth` is no singular
    /// of "Panther", whose beginning it is.
    func inflected(_ i: Int, _ word: String, primary: String?) -> Bool {
        let token = tokens[i]
        guard word != token, queryForms[i].contains(word), let primary, let singulars = queryLemmas[i][primary] else { return false }
        if tokenLengths[i] < 6, word.count == tokenLengths[i] + 2, word.hasSuffix("er"), word.hasPrefix(token) { return false }
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
