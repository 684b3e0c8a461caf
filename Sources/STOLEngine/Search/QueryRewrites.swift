import GRDB

/// The readings of a query besides as typed, each searched as well (down to prefixes) and its
/// hits marked with it (`readAs`):
/// - a word, or two words, by the requested language's lexicon (`Lexicon.alternatives`): its
///   meanings (`puppy` → dog, `hippo` → hippopotamus) and its other forms (`grey` → gray);
/// - a diminutive the lexicon does not list as the word it is formed from (`Diminutive`:
///   `Mäuschen` → maus, `ratoncito` → raton, `chaton` → chat), and that word's lexicon meanings,
///   when the typed word is no word of the language and the base word is one (`TypoGuard`);
/// - in English, `-our` and `-or` for each other, also before an ending (`colour` → color,
///   `armoured` → armored), when the database has the other form as a word;
/// - a closed compound as two words the database has (`honeybee` → honey bee), and two words as
///   the closed compound the database has (`sea horse` → seahorse); hyphens are spaces already.
///
/// Readings of one word come first, then of two words each read (`redeyed treefrog` → red eyed
/// tree frog), then of two words read together.
/// A query with a quoted phrase is read only as typed. At most `cap` readings, the query as typed
/// first.
enum QueryRewrites {
    struct Rewrite: Sendable {
        var query: SearchQuery
        /// The reading, for hits found through it; nil for the query as typed.
        var readAs: String?
    }

    /// Most readings of one query, the query as typed included.
    static let cap = 8
    /// Shortest word split into two, and shortest half.
    static let shortestSplit = 6
    static let shortestHalf = 3

    static func of(_ query: SearchQuery, lang: String, lexicon: Lexicon, in db: Database) throws -> [Rewrite] {
        var out = [Rewrite(query: query, readAs: nil)]
        let plain = !query.terms.contains { if case .phrase = $0 { true } else { false } }
        guard plain else { return out }
        let tokens = query.tokens
        var seen: Set<String> = [tokens.joined(separator: " ")]
        func add(_ words: [String]) throws {
            let text = words.joined(separator: " ")
            guard out.count < cap, seen.insert(text).inserted, let parsed = try SearchQuery.parse(text) else { return }
            out.append(Rewrite(query: parsed, readAs: text))
        }
        let primary = Inflection.primary(lang)
        /// Whether some taxon's names hold `words` (a word, or words side by side).
        func isTerm(_ words: String) throws -> Bool {
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM fts_taxa WHERE fts_taxa MATCH ?)"), arguments: [WordVocabulary.quoted(words)]) ?? false
        }
        // Per word, its other readings, each a word or words.
        var options: [[[String]]] = []
        for token in tokens {
            var readings: [[String]] = lexicon.alternatives(of: token, lang: primary).map { $0.split(separator: " ").map(String.init) }
            if readings.isEmpty {
                readings = try diminutiveReadings(of: token, lang: lang, lexicon: lexicon, in: db)
            }
            // British and American -our/-or, also before an ending (`armoured` → armored).
            if primary == "en" || primary == nil, let other = Self.otherSpelling(of: token), try isTerm(other) { readings.append([other]) }
            // A closed compound as two words some name has side by side (`honeybee` → honey bee;
            // not `raccoon` → rac coon, though both are words of some name).
            let letters = Array(token)
            if letters.count >= shortestSplit, letters.allSatisfy(\.isLetter) {
                for cut in shortestHalf...(letters.count - shortestHalf) {
                    let left = String(letters[..<cut]), right = String(letters[cut...])
                    if try isTerm(left + " " + right) { readings.append([left, right]) }
                }
            }
            options.append(readings)
        }
        // Readings of one word each, then of two words together (`redeyed treefrog` → red eyed tree frog).
        for i in tokens.indices {
            for reading in options[i] { try add(Array(tokens[..<i]) + reading + Array(tokens[(i + 1)...])) }
        }
        for i in tokens.indices {
            for j in tokens.indices where j > i {
                for a in options[i] {
                    for b in options[j] {
                        try add(Array(tokens[..<i]) + a + Array(tokens[(i + 1)..<j]) + b + Array(tokens[(j + 1)...]))
                    }
                }
            }
        }
        // Two words at once: the lexicon's (`killer whale` → orca), and a closed compound (`sea horse` → seahorse).
        for i in tokens.indices where i + 1 < tokens.count {
            for alternative in lexicon.alternatives(of: tokens[i] + " " + tokens[i + 1], lang: primary) {
                try add(Array(tokens[..<i]) + [alternative] + Array(tokens[(i + 2)...]))
            }
            let joined = tokens[i] + tokens[i + 1]
            if try isTerm(joined) { try add(Array(tokens[..<i]) + [joined] + Array(tokens[(i + 2)...])) }
        }
        return out
    }

    /// Endings after which `-our` and `-or` still alternate (`armoured`, `colors`, `flavouring`).
    static let spellingEndings = ["", "s", "ed", "ing", "ful", "less", "er", "ers"]

    /// The other of the British and American spellings of `token` (folded): `-our` for `-or` and
    /// back, at the word's end or before one of `spellingEndings`; nil when it has neither.
    static func otherSpelling(of token: String) -> String? {
        for ending in spellingEndings where token.hasSuffix(ending) {
            let stem = token.dropLast(ending.count)
            if stem.hasSuffix("our"), stem.count > 3 { return stem.dropLast(2) + "r" + ending }
            if stem.hasSuffix("or"), stem.count > 2 { return stem.dropLast(1) + "ur" + ending }
        }
        return nil
    }

    /// Most base words one diminutive is read as.
    static let diminutiveBases = 2

    /// The readings of `token` as a diminutive: the words of the language it may be formed from
    /// (`Diminutive.bases`; words as written before those known only in another number: `Äffchen`
    /// → affe, not the stem aff of "Affen"), each followed by its lexicon meanings (`corderito` →
    /// cordero → oveja); none when `token` is itself a word of the language (`vaquita`, `chouette`,
    /// `Eichhörnchen`).
    static func diminutiveReadings(of token: String, lang: String, lexicon: Lexicon, in db: Database) throws -> [[String]] {
        let candidates = Diminutive.bases(of: token, lang: lang)
        guard !candidates.isEmpty, try !TypoGuard.isWord(token, lang: lang, lexicon: lexicon, in: db) else { return [] }
        var bases: [String] = []
        for inflected in [false, true] {
            for base in candidates where bases.count < diminutiveBases && !bases.contains(base) {
                if try TypoGuard.isWord(base, lang: lang, inflected: inflected, lexicon: lexicon, in: db) { bases.append(base) }
            }
        }
        return bases.flatMap { base in [[base]] + lexicon.alternatives(of: base, lang: lang).map { $0.split(separator: " ").map(String.init) } }
    }
}
