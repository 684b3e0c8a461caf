import GRDB

extension SearchService {
    /// The largest typo distance allowed for a query: 2 from five characters on, else 1.
    static func allowedDistance(_ folded: String) -> Int { allowedDistance(letters: folded.count) }

    /// The same for a word of `letters` letters.
    static func allowedDistance(letters: Int) -> Int { letters >= 5 ? 2 : 1 }

    /// Taxa whose names hold the query's words (those of four letters or more) within one edit
    /// (words under 5 letters) or two, found through the word vocabulary (`WordVocabulary`): the
    /// close words of each query word, then the taxa holding one of them for every such word
    /// (`fts_taxa`), then their names judged here. A word of the requested language (`guarded`,
    /// `TypoGuard`) is never replaced by another: only it, as typed, answers for itself. A name's
    /// distance is the smaller of its edit distance to the whole query and the sum, over query
    /// words, of each word's distance to its closest word of the name (a word of three letters or
    /// fewer must start a word of the name as typed); at most 1 under five letters, 2 from five. A
    /// query without a word of four letters or more is never matched by typos (too many near
    /// neighbours).
    ///
    /// Close words are taken one edit at a time: once `needed` taxa are within k edits, words
    /// k + 1 edits away (`elegans` for `elefant`) are not read, and the result is `capped`.
    static func fuzzyHits(
        _ db: Database, _ query: SearchQuery, lang: String, needed: Int, guarded: Set<String>,
        filter: (sql: String, arguments: [String: (any DatabaseValueConvertible)?]), context: Context
    ) throws -> (hits: [Hit], capped: Bool) {
        let words = query.tokens
        let long = Array(Set(words.filter { $0.unicodeScalars.count >= WordVocabulary.shortestWord })).sorted()
        // Words of the language all: nothing is a typo (a short word may still be one: `whiskered wen`).
        let short = words.filter { $0.unicodeScalars.count < WordVocabulary.shortestWord }
        guard !long.isEmpty, long.contains(where: { !guarded.contains($0) }) || !short.isEmpty else { return ([], false) }
        let vocabulary = context.vocabulary
        var close: [[(word: String, distance: Int)]] = []
        for word in long {
            var found: [(word: String, distance: Int)]
            if guarded.contains(word) {
                found = [(word, 0)]
            } else if word.unicodeScalars.count == WordVocabulary.shortestWord {
                // Spelled out: a four-letter word shares too few trigrams with its neighbours. Shorter
                // forms (`raxt` → `rat`) only within several words, where the whole name is compared.
                found = try WordVocabulary.oneEditWords(of: word, shorter: words.count > 1, in: db, cache: vocabulary).map { ($0, 1) }
                found.append((word, 0))
            } else {
                found = try WordVocabulary.closeWords(to: word, limit: allowedDistance(word), in: db, cache: vocabulary)
            }
            guard !found.isEmpty else { return ([], false) }
            close.append(found)
        }
        let q = Array(query.folded.unicodeScalars)
        let limit = allowedDistance(query.folded)
        let queryWords = words.map { Array($0.unicodeScalars) }
        let guardedWords = words.map { guarded.contains($0) }
        // Short words start a word of the name as typed, or the whole name is within reach: first the
        // taxa with the short words as prefixes, then (whole names only) those of about the query's length.
        let prefixes = short.map { "\"\($0)\"*" }
        let farthest = close.map { $0.map(\.distance).max() ?? 0 }.max() ?? 0
        let columns = CandidateName.columns(ranking: context.ranking), from = CandidateName.from(ranking: context.ranking)
        var hits: [Hit] = []
        var seenTaxa: Set<Int64> = []
        for k in 1...max(1, farthest) {
            let alternatives = close.map { words in
                "(" + words.filter { $0.distance <= k }.map { "\"\($0.word)\"" }.joined(separator: " OR ") + ")"
            }
            guard !alternatives.contains("()") else { continue }
            var passes = [(alternatives + prefixes).joined(separator: " AND ")]
            if !prefixes.isEmpty { passes.append(alternatives.joined(separator: " AND ")) }
            var rows: [CandidateName] = []
            var stageTaxa: Set<Int64> = []
            for (i, expression) in passes.enumerated() {
                let taxa = try Int64.fetchAll(db.cachedStatement(sql: "SELECT rowid FROM fts_taxa WHERE fts_taxa MATCH ? LIMIT \(fuzzyCap)"), arguments: [expression])
                    .filter { !seenTaxa.contains($0) }
                guard !taxa.isEmpty else { continue }
                if i == 0 { stageTaxa.formUnion(taxa) }
                var args = StatementArguments(filter.arguments)
                args += ["taxa": TaxonomyStore.jsonArray(taxa), "shortest": q.count - limit, "longest": q.count + limit]
                let lengths = i == 0 ? "" : " AND length(s.folded) BETWEEN :shortest AND :longest"
                let sql = "SELECT \(columns) FROM \(from) WHERE s.taxon_id IN (SELECT value FROM json_each(:taxa))\(lengths)\(filter.sql)"
                rows += try CandidateName.fetchAll(db.cachedStatement(sql: sql), arguments: args)
            }
            // Taxa read whole in the first pass are settled; the second pass read only some names.
            seenTaxa.formUnion(stageTaxa)
            for row in rows {
                let name = Array(row.folded.unicodeScalars)
                let nameWords = SearchQuery.words(ofFolded: row.folded).map { Array($0.unicodeScalars) }
                var distance: Int?
                if let perWord = wordDistance(queryWords, nameWords: nameWords, limit: limit, exact: guardedWords) { distance = perWord }
                // The whole name too, when it holds the words of the language as typed.
                let keepsGuarded = words.indices.allSatisfy { !guardedWords[$0] || nameWords.contains(queryWords[$0]) }
                if keepsGuarded, abs(name.count - q.count) <= limit, let whole = EditDistance.distance(q, name, limit: limit) {
                    distance = min(distance ?? whole, whole)
                }
                guard let distance, distance > 0 else { continue }
                var h = Hit(row, match: NameMatcher.Match(tier: .fuzzy))
                h.editDistance = distance
                // A whole name mistyped counts as its head ("Leopard" before "Leopard slug" for
                // `leopord`), and so does a mistyped head word ("Elefante asiático" before "Pez
                // elefante" for `elefnte`).
                h.head = nameWords.count == queryWords.count || Self.mistypesHead(queryWords, head: row.headWord)
                hits.append(h)
            }
            let settled = Set(hits.filter { ($0.editDistance ?? 9) <= k }.map(\.taxonID))
            if settled.count >= needed, k < farthest { return (hits, true) }
        }
        return (hits, false)
    }

    /// Whether one of `queryWords` of four letters or more is within its typo limit of the name's
    /// `head` word (`NameStructure`).
    static func mistypesHead(_ queryWords: [[Unicode.Scalar]], head: String?) -> Bool {
        guard let head else { return false }
        let target = Array(head.unicodeScalars)
        return queryWords.contains { word in
            word.count >= WordVocabulary.shortestWord && EditDistance.distance(word, target, limit: allowedDistance(letters: word.count)) != nil
        }
    }

    /// The sum over query words of each one's distance to its closest name word not yet taken by an
    /// earlier query word (words of four letters or more, each within its own limit; shorter ones
    /// must start a name word; a word marked `exact` must be a name word as typed), or nil when a
    /// word has no such match or the sum exceeds `limit`.
    static func wordDistance(_ queryWords: [[Unicode.Scalar]], nameWords: [[Unicode.Scalar]], limit: Int, exact: [Bool] = []) -> Int? {
        var total = 0
        var unused = nameWords
        for (index, word) in queryWords.enumerated() {
            var best: (distance: Int, index: Int)?
            if word.count < WordVocabulary.shortestWord {
                if let i = unused.firstIndex(where: { $0.starts(with: word) }) { best = (0, i) }
            } else if index < exact.count, exact[index] {
                if let i = unused.firstIndex(of: word) { best = (0, i) }
            } else {
                let wordLimit = allowedDistance(letters: word.count)
                // A name word may be one letter shorter than the shortest compared (`owbl` → owl).
                for (i, candidate) in unused.enumerated() where candidate.count >= WordVocabulary.shortestWord - 1 {
                    if let d = EditDistance.distance(word, candidate, limit: min(wordLimit, best?.distance ?? wordLimit)), d < (best?.distance ?? 9) {
                        best = (d, i)
                    }
                    if best?.distance == 0 { break }
                }
            }
            // Each name word answers one query word (`vulpes vulpse` is not the genus Vulpes).
            guard let best else { return nil }
            unused.remove(at: best.index)
            total += best.distance
            if total > limit { return nil }
        }
        return total
    }
}

/// Which query words are words of the requested language, so never corrected as typos: words
/// of the lexicon (`Lexicon.knows`), and words of the database's common names in that language
/// (as a word, or as the head of a compound: `Wal` of "Blauwal").
enum TypoGuard {
    /// Taxa whose names are read to see whether a word is one of the language's.
    static let sampled = 50

    static func knownWords(_ tokens: [String], lang: String, lexicon: Lexicon, in db: Database) throws -> Set<String> {
        var out: Set<String> = []
        for token in Set(tokens) where token.unicodeScalars.count >= WordVocabulary.shortestWord {
            if try isWord(token, lang: lang, lexicon: lexicon, in: db) { out.insert(token) }
        }
        return out
    }

    /// Whether `token` (folded, of any length) is a word of `lang`: of the lexicon, or a word of
    /// one of the database's common names in that language, in either number (or, with
    /// `inflected` false, only as written).
    static func isWord(_ token: String, lang: String, inflected: Bool = true, lexicon: Lexicon, in db: Database) throws -> Bool {
        let primary = Inflection.primary(lang) ?? lang
        if inflected ? lexicon.knows(token, lang: primary) : lexicon.words.contains(token) { return true }
        let forms = [token] + Inflection.forms(token).sorted()
        let expression = forms.map { "common_names:\"\($0)\"" }.joined(separator: " OR ")
        let taxa = try Int64.fetchAll(db.cachedStatement(sql: "SELECT rowid FROM fts_taxa WHERE fts_taxa MATCH ? LIMIT \(sampled)"), arguments: [expression])
        guard !taxa.isEmpty else { return false }
        let names = try db.storedRows("SELECT folded, lang, id FROM search_names WHERE taxon_id IN (SELECT value FROM json_each(?)) AND match_type = 'common'",
            [TaxonomyStore.jsonArray(taxa)], rowids: [("search_names", 2)]) { row in
            (folded: try row.text(0, "search_names.folded"), lang: try row.textOrNull(1, "search_names.lang"))
        }
        return names.contains { name in
            Inflection.primary(name.lang) == primary
                && SearchQuery.words(ofFolded: name.folded).contains { $0 == token || (inflected && Inflection.areInflections(token, $0, lang: primary)) }
        }
    }
}
