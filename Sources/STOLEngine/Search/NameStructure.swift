/// The head of a common name, the word it is about, in the name's own language; and its words
/// split into compound parts where the language writes compounds as one word.
///
/// - English and most languages: the last word ("Asian *elephant*") that is not one of the
///   lexicon's `[modifiers]` ("*Cactus* family"), or the word before `of` ("*Bird* of paradise").
/// - A name that lists groups is about the first ("*Salamanders* and newts", "*Dogs*, wolves and
///   foxes", "*frogs* & toads"). Closed compounds the lexicon pairs with a split form are split
///   (`honeybee` → honey|bee). In English, a hyphen before the last word makes the compound the
///   head ("*Sun-rose*" is no rose: `hyphenatedCompound`).
/// - German, Dutch, Afrikaans, Frisian, Luxembourgish and the Nordic languages: the last part of
///   the last word, compounds split at the words the database knows and the lexicon's
///   (`CompoundSplitter`): "Blau|*wal*", "Weißer *Hai*", "Hunds|*robben*".
/// - French, Spanish, Italian, Portuguese, Catalan, Galician, Romanian and Occitan: the first word
///   that is not an article or one of the lexicon's `[modifiers]` ("*Puce* du chat", "Grand
///   *requin* blanc", "*Pez* elefante").
///
/// Scientific names and synonyms have no head here: search takes a scientific name's first word
/// (the genus) as its head.
public struct NameStructure: Sendable, Equatable {
    /// The head, folded: a word, or the last part of a compound word.
    public var head: String
    /// The folded words, compound words written with `|` between their parts (`blau|wal`);
    /// nil when no word is split.
    public var parts: String?

    /// Languages that write compounds as one word, head last.
    public static let compounding: Set<String> = ["de", "nl", "af", "fy", "lb", "sv", "da", "no", "nb", "nn", "is", "fo"]
    /// Languages whose names put the head first.
    public static let headFirst: Set<String> = ["fr", "es", "it", "pt", "ca", "gl", "ro", "oc"]

    /// The structure of a common name (`folded`, as `TextFolding` writes it) in `lang`; `splitter`
    /// splits compound words (nil: none are split).
    public static func of(folded: String, lang: String?, lexicon: Lexicon, splitter: CompoundSplitter?) -> NameStructure? {
        let words = SearchQuery.words(ofFolded: folded)
        guard !words.isEmpty else { return nil }
        let primary = Inflection.primary(lang) ?? ""
        var split = words.map { [$0] }
        if let splitter, compounding.contains(primary) {
            split = words.map { splitter.parts(of: $0) }
        } else if !headFirst.contains(primary) {
            // A closed compound the lexicon pairs with its split form (`honeybee: honey bee`).
            split = words.map { word in
                let pieces = (lexicon.same[word] ?? []).map { $0.split(separator: " ").map(String.init) }
                return pieces.first { $0.count > 1 && $0.joined() == word } ?? [word]
            }
        }
        let index = headIndex(words, lang: primary, lexicon: lexicon, firstItem: firstItemLength(folded, words: words))
        var head = headFirst.contains(primary) ? words[index] : split[index].last ?? words[index]
        if primary == "en", let compound = hyphenatedCompound(folded, words: words, at: index, lexicon: lexicon) { head = compound }
        let parts = split.contains { $0.count > 1 } ? split.map { $0.joined(separator: "|") }.joined(separator: " ") : nil
        return NameStructure(head: head, parts: parts)
    }

    /// The hyphenated compound that the head word ends, when it is one: in English names a hyphen
    /// before the head says the organism is not of the head's kind ("sun-rose" is no rose,
    /// "Spanish-moss" no moss, "sea-lion" no lion, "grape-ivy" no ivy; the convention of
    /// botanical common names), so the whole compound is the head and the word alone is not. A
    /// compound the lexicon pairs with its split form (`honeybee: honey bee`) is of the head's kind
    /// and keeps it. `words` are `folded`'s words (`SearchQuery.words(ofFolded:)`).
    static func hyphenatedCompound(_ folded: String, words: [String], at index: Int, lexicon: Lexicon) -> String? {
        guard index > 0, folded.utf8.contains(UInt8(ascii: "-")) else { return nil }
        // Which word of the name each space-separated chunk starts at, and the chunk of the head.
        var first = 0
        for chunk in folded.split(separator: " ") {
            let count = SearchQuery.words(ofFolded: String(chunk)).count
            defer { first += count }
            guard index < first + count else { continue }
            // The head must follow a hyphen inside its chunk ("sun-rose"), not open it.
            guard index > first, let hyphen = chunk.lastIndex(of: "-"),
                  SearchQuery.words(ofFolded: String(chunk[hyphen...])).first == words[index] else { return nil }
            let joined = words[first...index].joined()
            if (lexicon.same[joined] ?? []).contains(where: { $0.contains(" ") }) { return nil }
            return String(chunk)
        }
        return nil
    }

    /// Whether a name's word (`parts`: its compound parts, one for a word not split) is the name's
    /// `head` for a query of `tokens`: the head itself, or the last word of a hyphenated compound
    /// head (`hyphenatedCompound`) whose other words the query holds too ("seed finch" is of
    /// "seed-finch"'s head; "finch" alone is not).
    static func isHead(_ parts: [String], head: String?, tokens: [String]) -> Bool {
        guard let head, let last = parts.last else { return false }
        if last == head || (parts.count > 1 && parts.joined() == head) { return true }
        guard parts.count == 1, head.utf8.contains(UInt8(ascii: "-")) else { return false }
        let compound = SearchQuery.words(ofFolded: head)
        return compound.last == last && compound.dropLast().allSatisfy(tokens.contains)
    }

    /// Words that join the items of a name that lists several groups ("Dogs, wolves and foxes").
    static let conjunctions: Set<String> = ["and", "und", "et", "y", "e", "en", "och", "og", "ou", "o", "or", "oder"]

    /// How many of `words` (of the folded name `folded`) belong to its first item: a name that
    /// lists several groups ("Salamanders and newts", "Herons, egrets and bitterns") is about the
    /// first one.
    static func firstItemLength(_ folded: String, words: [String]) -> Int {
        var count = words.count
        // Separators are ASCII: found among the bytes, without walking characters.
        if let separator = folded.utf8.firstIndex(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: "/") }) {
            count = min(count, SearchQuery.words(ofFolded: String(folded[..<separator])).count)
        }
        if let conjunction = words.indices.first(where: { $0 > 0 && $0 < words.count - 1 && conjunctions.contains(words[$0]) }) {
            count = min(count, conjunction)
        }
        return max(count, 1)
    }

    /// Which of `words` (folded, of a name in the primary language `lang`) is the head word; of
    /// the first `firstItem` words when the name lists several groups (`firstItemLength`).
    public static func headIndex(_ words: [String], lang: String, lexicon: Lexicon, firstItem: Int? = nil) -> Int {
        let words = Array(words.prefix(firstItem ?? words.count))
        guard words.count > 1 else { return 0 }
        if headFirst.contains(lang) {
            let articles: Set<String> = ["l", "d", "le", "la", "les", "el", "los", "las", "il", "lo", "gli", "o", "os", "as", "un", "une", "una", "uno"]
            return words.firstIndex { !articles.contains($0) && !lexicon.modifiers.contains($0) } ?? 0
        }
        if !compounding.contains(lang), let of = words.firstIndex(of: "of"), of > 0 {
            return of - 1
        }
        return words.lastIndex { !lexicon.modifiers.contains($0) } ?? words.count - 1
    }

    /// The head of a name that has no stored structure (a database built before heads were), by
    /// the same rules without splitting compounds: its head word.
    public static func head(ofFolded folded: String, lang: String?, matchType: String) -> String? {
        guard matchType == "common" else { return SearchQuery.firstWord(ofFolded: folded) }
        let words = SearchQuery.words(ofFolded: folded)
        guard !words.isEmpty else { return nil }
        let primary = Inflection.primary(lang) ?? ""
        let lexicon = Lexicon.of(primary)
        let index = headIndex(words, lang: primary, lexicon: lexicon, firstItem: firstItemLength(folded, words: words))
        if primary == "en", let compound = hyphenatedCompound(folded, words: words, at: index, lexicon: lexicon) { return compound }
        return words[index]
    }
}

/// Splits compound words of one language at the words it knows: `known`, the words the
/// database's names in that language hold as written and the lexicon's `[words]`, and `inferred`,
/// their singulars (`wal` of "Wale"). A split has the fewest parts, each of `minimumPart` letters
/// or more, known as it is or once a linking element or plural ending (`-s-`, `-es-`, `-n-`,
/// `-en-`, `-er-`, `-e-`, `-ens-`; in the Nordic languages also `-a-`, `-u-`, `-o-`) is taken off,
/// but for the first, which may also be unknown if it has `minimumUnknownPart` letters or more, or
/// three before five or more, and then only before a last part known as written (Web|spinnen, not
/// Amphi|bien through "Biene"); a split with an unknown part costs as three known ones. Each part
/// found is split again the same way. A word is never split at itself (`Hausmaus` is known, and
/// still splits into Haus|maus).
public struct CompoundSplitter: Sendable {
    /// Words the language knows as written.
    public let known: Set<String>
    /// Singulars of those words, not themselves written in any name.
    public let inferred: Set<String>
    /// Linking elements and plural endings taken off a part before it is looked up.
    let linking: [String]

    /// Shortest part, in letters.
    public static let minimumPart = 3
    /// Shortest unknown first part, in letters (three before a known part of five or more).
    public static let minimumUnknownPart = 4

    /// A splitter for the primary language `lang`.
    public init(known: Set<String>, inferred: Set<String> = [], lang: String) {
        self.known = known
        self.inferred = inferred.subtracting(known)
        switch lang {
        case "sv", "da", "no", "nb", "nn", "is", "fo": linking = ["s", "e", "a", "u", "o"]
        case "nl", "af", "fy": linking = ["s", "en", "e"]
        default: linking = ["s", "es", "n", "en", "er", "e", "ens"]
        }
    }

    /// How a part is known: 2 as written (or with an ending taken off), 1 only as an inferred
    /// singular, 0 not.
    func knowledge(_ text: String) -> Int {
        func level(_ word: String) -> Int { known.contains(word) ? 2 : inferred.contains(word) ? 1 : 0 }
        var best = level(text)
        for ending in linking where best < 2 && text.hasSuffix(ending) && text.count - ending.count >= Self.minimumPart {
            best = max(best, level(String(text.dropLast(ending.count))))
        }
        return best
    }

    /// The parts of `word` (folded); `[word]` when it does not split.
    public func parts(of word: String, depth: Int = 0) -> [String] {
        let letters = Array(word.unicodeScalars)
        let n = letters.count
        guard depth < 3, n >= 2 * Self.minimumPart, n <= 48 else { return [word] }
        func piece(_ range: Range<Int>) -> String {
            var s = String.UnicodeScalarView()
            s.append(contentsOf: letters[range])
            return String(s)
        }
        // best[i]: the cheapest split of the first i letters (cost 1 a known part, 3 an unknown
        // first part), and whether its first part is unknown.
        var best = [(cost: Int, cuts: [Int], unknownFirst: Bool)?](repeating: nil, count: n + 1)
        best[0] = (0, [], false)
        for end in Self.minimumPart...n {
            for start in stride(from: end - Self.minimumPart, through: 0, by: -1) {
                guard let before = best[start] else { continue }
                let text = piece(start..<end)
                guard text != word else { continue }
                let known = knowledge(text)
                var cost = 1, unknownFirst = before.unknownFirst
                if end == n {
                    guard known == 2 || (known == 1 && !before.unknownFirst) else { continue }
                } else if known == 0 {
                    // An unknown first part of three letters only before a known part of five or
                    // more (Web|spinnen, not Gir|affe).
                    guard start == 0, end >= Self.minimumUnknownPart || n - end >= 5 else { continue }
                    cost = 3
                    unknownFirst = true
                }
                let total = before.cost + cost
                if best[end] == nil || total < best[end]!.cost {
                    best[end] = (total, before.cuts + [end], unknownFirst)
                }
            }
        }
        guard let found = best[n], found.cuts.count > 1 else { return [word] }
        var out: [String] = []
        var start = 0
        for cut in found.cuts {
            let part = piece(start..<cut)
            out += parts(of: part, depth: depth + 1)
            start = cut
        }
        return out
    }
}
