import Foundation
import GRDB
import STOLProtocol

/// Full-text search over one taxonomy database, and listing by filters alone.
///
/// Every taxon is ranked by its single best-matching name, in tiers (`MatchTier`): exact (accents
/// as typed above accents folded), the whole name with the query's plurals in the singular, whole
/// words, inflected forms, word prefixes, word-internal matches (compounds), words spread over
/// several names, then typos. Within a tier, names in the user's language come first, then head
/// nouns ("Asian elephant" for `elephant`), names before synonyms, accepted taxa, taxa known in the
/// user's language (a common name of their own, or half of their first children with one:
/// *Panthera* before the moth genus *Panthea*), shorter names, and species. When the query has accents, names that
/// lack them come after those that have them. Each tier's candidates come from an index and are
/// judged by `NameMatcher`; tiers stop once the page is full of better hits. Typos are looked for
/// when fewer than 3 taxa matched and none as typed, whole word or inflected. Queries are never
/// logged or stored.
public struct SearchService: Sendable {
    public let database: TaxonomyDatabase

    public init(database: TaxonomyDatabase) {
        self.database = database
    }

    /// Search options besides the query.
    public struct Options: Sendable {
        public var filters = SearchFilters()
        public var lang = "en"
        public var limit = 50
        public var offset = 0

        public init() {}
    }

    /// One page of results and the position of the next page.
    public struct Page: Sendable {
        public var results: [SearchResult]
        /// Offset of the next page, when there is one.
        public var nextOffset: Int?
        /// Whether typo-tolerant matches were added.
        public var fuzzy: Bool
        /// How many taxa matched: exact unless `totalCapped`.
        public var total: Int
        /// True when `total` is a lower bound (a tier hit its cap, tiers were skipped, or a listing passed `listingCap`).
        public var totalCapped: Bool
    }

    /// How many candidates each tier may contribute; fixed (not derived from the page) so that
    /// every page of one query is cut from the same ordered list.
    static let exactCap = 1_000
    static let fullTextCap = 1_000
    /// Names starting with the query, and taxa with a word starting with each query word: a prefix
    /// of a few letters matches tens of thousands of names on millions of taxa.
    static let prefixCap = 500
    static let internalCap = 500
    /// Vocabulary words holding a query word inside, per query word.
    static let internalWordCap = 300
    /// Of a query of several words, the taxa of the word with the fewest word-internal matches are
    /// judged whole when there are at most this many and the other words have at least as many.
    static let internalJudgedWhole = 100
    /// Taxa whose names are checked for typos (`fuzzyHits`).
    static let fuzzyCap = 500
    /// A listing by filters counts at most this many taxa.
    public static let listingCap = 10_000

    public func search(_ query: SearchQuery?, options: Options) async throws -> Page {
        let select = TaxonomyStore.selectTaxon(in: database)
        let vocabulary = database.vocabularyCache, commonNames = database.commonNameLanguages, cache = database.taxonCache
        return try await database.read { db in
            let range = try options.filters.within.map { id in
                guard let range = try SearchFilters.subtreeRange(db, of: id) else { throw SearchError.unknownTaxon(id) }
                return range
            }
            let filter = options.filters.sql(range: range)
            guard let query else { return try Self.listing(db, options: options, filter: filter, select: select) }
            let ranked = try Self.rankedHits(db, query, options, filter: filter, vocabulary: vocabulary, commonNames: commonNames)
            let hits = ranked.hits
            let window = Array(hits.dropFirst(options.offset).prefix(options.limit))
            let results = try Self.results(db, window, query: query, lang: options.lang, select: select, cache: cache)
            let next = options.offset + options.limit < hits.count ? options.offset + options.limit : nil
            return Page(results: results, nextOffset: next, fuzzy: hits.contains { $0.tier == .fuzzy }, total: hits.count, totalCapped: ranked.capped)
        }
    }

    // MARK: Candidates

    struct Hit: Sendable {
        var taxonID: Int64
        var tier: MatchTier
        /// The matched name and its type; nil for all-names hits until resolved.
        var name: String?
        var matchType: String?
        var lang: String?
        var scientificName: String
        var rank: Rank?
        var status: TaxonStatus
        var editDistance: Int?
        var nameLength = 0
        /// 0: the user's language or a scientific name; 1: English; 2: another language.
        var languageOrder = 0
        var atEnd = false
        var atStart = false
        var accentMismatch = false
        /// Whether the taxon is known in the user's language: it has a common name in it, or at least
        /// half of its children (of the first `sampledChildren`) have one. Known taxa first within a
        /// tier (`markKnown`), looked up where it can change the page (`finish` in `rankedHits`).
        var known = false
        /// For an all-names hit, the worst relation of a query word to the taxon's names.
        var spread = MatchTier.exact
        /// Set once the hits are ordered (`scored`).
        var relevance = 0.0

        /// Sort key: typos last; names lacking the query's accents after those that have them;
        /// tier; (typos) edits, (all names) how loosely the words matched; the user's language;
        /// head nouns; name starts; names before synonyms; accepted taxa; known taxa; shorter names;
        /// species; finally name and id.
        static func ordered(_ a: Hit, _ b: Hit) -> Bool {
            if let decided = orderedBeforeKnown(a, b) { return decided }
            if a.known != b.known { return a.known }
            if a.nameLength != b.nameLength { return a.nameLength < b.nameLength }
            let speciesA = a.rank == .species, speciesB = b.rank == .species
            if speciesA != speciesB { return speciesA }
            if a.scientificName != b.scientificName { return a.scientificName < b.scientificName }
            return a.taxonID < b.taxonID
        }

        /// The keys of `ordered` before `known`: whether `a` comes first, or nil when they tie.
        static func orderedBeforeKnown(_ a: Hit, _ b: Hit) -> Bool? {
            let fuzzyA = a.tier == .fuzzy, fuzzyB = b.tier == .fuzzy
            if fuzzyA != fuzzyB { return !fuzzyA }
            if a.accentMismatch != b.accentMismatch { return !a.accentMismatch }
            if a.tier != b.tier { return a.tier < b.tier }
            if a.tier == .fuzzy, a.editDistance != b.editDistance { return (a.editDistance ?? 9) < (b.editDistance ?? 9) }
            if a.spread != b.spread { return a.spread < b.spread }
            if a.languageOrder != b.languageOrder { return a.languageOrder < b.languageOrder }
            if a.atEnd != b.atEnd { return a.atEnd }
            if a.atStart != b.atStart { return a.atStart }
            let synonymA = a.matchType == "synonym", synonymB = b.matchType == "synonym"
            if synonymA != synonymB { return !synonymA }
            if a.status != b.status { return statusOrder(a.status) < statusOrder(b.status) }
            return nil
        }

        static func statusOrder(_ s: TaxonStatus) -> Int {
            switch s {
            case .accepted: 0
            case .doubtful: 1
            case .synonym: 2
            }
        }
    }

    static let nameColumns = "s.taxon_id, s.name, s.folded, s.match_type, s.lang, t.scientific_name, t.rank, t.status"

    /// Every name of the taxa in `:taxa` (a JSON array of ids, so the statement is prepared once), filtered.
    static func namesOfTaxaSQL(_ filter: String) -> String {
        "SELECT \(nameColumns) FROM search_names s JOIN taxa t ON t.id = s.taxon_id WHERE s.taxon_id IN (SELECT value FROM json_each(:taxa))\(filter)"
    }

    /// Children looked at to decide whether a taxon without a common name is known (`Hit.known`).
    static let sampledChildren = 20
    /// Of the hits tied with a page's last hit on every key before `known`, how many are looked up
    /// at most, and how many at a time (1,000 strains of *Escherichia coli* tie on Open Tree).
    static let knownLookups = 200
    static let knownBatch = 50

    /// Sets the `known` of the hits at `indices` (see `Hit.known`): a hit on a common name in
    /// `lang` is known; the others are looked up in one statement.
    static func markKnown(_ hits: inout [Hit], at indices: [Int], lang: String, in db: Database) throws {
        var unknown: [Int64] = []
        for i in indices {
            if hits[i].matchType == "common", languageOrder(hits[i].lang, lang) == 0 { hits[i].known = true } else { unknown.append(hits[i].taxonID) }
        }
        guard !unknown.isEmpty else { return }
        let primary = Inflection.primary(lang) ?? lang
        let regional = TaxonomyStore.regionalTags(of: primary)
        let named = "(n.lang = :lang OR (n.lang >= :regional AND n.lang < :regionalEnd)) AND n.name_type IN ('common', 'vernacular')"
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT value FROM json_each(:taxa)
            WHERE EXISTS (SELECT 1 FROM names n WHERE n.taxon_id = value AND \(named))
                OR (SELECT sum(k) > 0 AND 2 * sum(k) >= count(*) FROM (
                    SELECT EXISTS (SELECT 1 FROM names n WHERE n.taxon_id = c.id AND \(named)) AS k
                    FROM taxa c WHERE c.parent_id = value LIMIT \(sampledChildren)))
            """), arguments: ["taxa": TaxonomyStore.jsonArray(unknown), "lang": primary, "regional": regional.lower, "regionalEnd": regional.upper])
        var known: Set<Int64> = []
        while let row = try rows.next() { known.insert(row[0]) }
        for i in indices where known.contains(hits[i].taxonID) { hits[i].known = true }
    }

    static func rankedHits(
        _ db: Database, _ query: SearchQuery, _ options: Options, filter: (sql: String, arguments: [String: (any DatabaseValueConvertible)?]),
        vocabulary: VocabularyCache, commonNames: CommonNameLanguages
    ) throws -> (hits: [Hit], capped: Bool) {
        func arguments(_ extra: [String: (any DatabaseValueConvertible)?]) -> StatementArguments {
            StatementArguments(filter.arguments.merging(extra) { $1 })
        }
        let matcher = NameMatcher(query)
        let lang = options.lang
        let needed = options.offset + options.limit
        var capped = false
        var best: [Int64: Hit] = [:]
        // Taxa all of whose names have been judged: judging them again gives the same hits.
        var judged: Set<Int64> = []
        func keep(_ hit: Hit) {
            if let existing = best[hit.taxonID], !Hit.ordered(hit, existing) { return }
            best[hit.taxonID] = hit
        }
        /// Judges every fetched name; with `acrossNames`, a taxon none of whose names holds the
        /// whole query (the index matched it across names) is an all-names hit.
        func consider(_ rows: [CandidateName], acrossNames: Bool) {
            var matched: Set<Int64> = []
            var unmatched: [Int64: [CandidateName]] = [:]
            for row in rows {
                let id = row.taxonID
                if judged.contains(id) { continue }
                if let match = matcher.match(name: row.name, nameFolded: row.folded, lang: row.lang) {
                    keep(hit(row, match: match, lang: lang))
                    matched.insert(id)
                } else if acrossNames {
                    unmatched[id, default: []].append(row)
                }
            }
            for (id, names) in unmatched where !matched.contains(id) && best[id] == nil {
                guard let spread = matcher.spread(names: names.map { ($0.folded, $0.lang) }) else { continue }
                var h = hit(names[0], match: NameMatcher.Match(tier: .allNames), lang: lang)
                (h.name, h.matchType, h.lang, h.languageOrder) = (nil, nil, nil, 0)
                h.spread = spread
                h.nameLength = names.reduce(0) { $0 + $1.folded.unicodeScalars.count }
                keep(h)
            }
        }
        /// Whether the page is already full of hits no later tier can outrank.
        func full(after covered: MatchTier) -> Bool {
            let settled = best.values.count { $0.tier <= covered && !$0.accentMismatch }
            if settled >= needed {
                capped = true
                return true
            }
            return false
        }
        /// The hits in order. `known` only orders hits that tie on every key before it (a run),
        /// so it is looked up only where it can change the page: in each run that reaches the
        /// page, in the order of the keys after `known`, for at most `knownLookups` hits (the
        /// rest count as not known, whatever the page), and in the run holding the page's last
        /// hit only until its share of the page is known. A later page, asking for more, may look
        /// further into that run; what it finds known comes after what was found before, so
        /// pages neither repeat nor skip. A database without common names in the language has
        /// no known taxa: nothing is looked up.
        func finish() throws -> (hits: [Hit], capped: Bool) {
            var hits = best.values.sorted(by: Hit.ordered)
            guard needed > 0, hits.count > 1, commonNames.any(in: Inflection.primary(lang) ?? lang, db: db) else { return (scored(hits), capped) }
            var whole: [Int] = []
            var start = 0, reach = 0
            while start < min(needed, hits.count) {
                var end = start + 1
                while end < hits.count, Hit.orderedBeforeKnown(hits[start], hits[end]) != true { end += 1 }
                let lookups = start..<min(end, start + knownLookups)
                reach = end
                if end <= needed {
                    whole += lookups
                } else {
                    // The run holding the page's last hit: a batch at a time.
                    var looked = lookups.lowerBound, found = 0
                    while looked < lookups.upperBound, found < needed - start {
                        let batch = Array(looked..<min(lookups.upperBound, looked + knownBatch))
                        try markKnown(&hits, at: batch, lang: lang, in: db)
                        found += batch.count { hits[$0].known }
                        looked += batch.count
                    }
                }
                start = end
            }
            try markKnown(&hits, at: whole, lang: lang, in: db)
            hits[..<reach].sort(by: Hit.ordered)
            return (scored(hits), capped)
        }
        func fetch(_ sql: String, _ args: StatementArguments, cap: Int) throws -> [CandidateName] {
            let rows = try CandidateName.fetchAll(db.cachedStatement(sql: sql), arguments: args)
            if rows.count >= cap { capped = true }
            return rows
        }
        /// The taxa `expression` matches in `fts_taxa`, at most `cap`.
        func taxaMatching(_ expression: String, cap: Int) throws -> [Int64] {
            try Int64.fetchAll(db.cachedStatement(sql: "SELECT rowid FROM fts_taxa WHERE fts_taxa MATCH ? LIMIT ?"), arguments: [expression, cap])
        }
        /// Judges every name of the taxa `expression` matches in `fts_taxa` (the cap applies to
        /// taxa), skipping taxa already judged, then marks them judged. Returns whether they were
        /// all (fewer than `cap`).
        @discardableResult func considerTaxaMatching(_ expression: String, cap: Int = fullTextCap) throws -> Bool {
            let taxa = try taxaMatching(expression, cap: cap)
            if taxa.count >= cap { capped = true }
            try judge(taxa)
            return taxa.count < cap
        }
        /// Judges every name of `taxa` not judged yet, then marks them judged.
        func judge(_ taxa: [Int64]) throws {
            let fresh = taxa.filter { !judged.contains($0) }
            guard !fresh.isEmpty else { return }
            let rows = try CandidateName.fetchAll(db.cachedStatement(sql: namesOfTaxaSQL(filter.sql)), arguments: arguments(["taxa": TaxonomyStore.jsonArray(fresh)]))
            consider(rows, acrossNames: true)
            judged.formUnion(fresh)
        }

        consider(try fetch("""
            SELECT \(nameColumns) FROM search_names s JOIN taxa t ON t.id = s.taxon_id
            WHERE s.folded IN (SELECT value FROM json_each(:forms))\(filter.sql) LIMIT \(exactCap)
            """, arguments(["forms": TaxonomyStore.jsonArray(query.wholeNameForms)]), cap: exactCap), acrossNames: false)
        if full(after: .exactInflected) { return try finish() }

        try considerTaxaMatching(query.wholeWordExpression)
        if full(after: .wholeWord) { return try finish() }

        // Inflected forms that are no term of the full-text index find nothing there: once an
        // earlier search has read the vocabulary into memory, they are left out (same hits).
        let indexed = vocabulary.wordsIfRead
        if let inflected = query.inflectedExpression(keeping: { indexed?.mayHold($0) ?? true }) {
            try considerTaxaMatching(inflected)
            if full(after: .inflected) { return try finish() }
        }

        consider(try fetch("""
            SELECT \(nameColumns) FROM search_names s JOIN taxa t ON t.id = s.taxon_id
            WHERE s.folded > :q AND s.folded < :q || char(1114111)\(filter.sql)
            ORDER BY s.folded LIMIT \(prefixCap)
            """, arguments(["q": query.folded]), cap: prefixCap), acrossNames: false)
        let everyPrefixJudged = try considerTaxaMatching(query.ftsExpression, cap: prefixCap)
        if full(after: .prefix) { return try finish() }

        // Word-internal: the vocabulary words holding each query word (or a singular) inside, then
        // the taxa holding such a word for every query word. With several query words whose other
        // words hold long OR lists (`leo` is inside 1,486 words of Open Tree), the taxa of the one
        // with the fewest such words come first: when there are few, they are judged whole
        // (judging keeps only taxa that hold every query word) and the long lists are not read.
        let substrings = query.substrings
        if !substrings.isEmpty {
            var alternatives: [[String]] = []
            for parts in substrings {
                let found = try WordVocabulary.wordsContaining(parts, cap: internalWordCap, in: db, cache: vocabulary)
                if found.capped { capped = true }
                alternatives.append(found.words.isEmpty ? parts : found.words)
            }
            // Words that all start with their query word find only taxa the prefix tier judged.
            let onlyPrefixes = everyPrefixJudged && !query.terms.contains { if case .phrase = $0 { true } else { false } }
                && zip(query.tokens.filter { $0.count >= 3 }, alternatives).allSatisfy { token, words in words.allSatisfy { $0.hasPrefix(token) } }
            func any(_ words: [String]) -> String { "(" + words.map { "\"\($0)\"" }.joined(separator: " OR ") + ")" }
            let fewest = alternatives.min { $0.count < $1.count } ?? []
            let others = alternatives.reduce(0) { $0 + $1.count } - fewest.count
            if onlyPrefixes {
                // Nothing is inside a word that the prefix tier did not judge.
            } else if others >= internalJudgedWhole, case let taxa = try taxaMatching(any(fewest), cap: internalJudgedWhole + 1), taxa.count <= internalJudgedWhole {
                try judge(taxa)
            } else {
                try considerTaxaMatching(alternatives.map(any).joined(separator: " AND "), cap: internalCap)
            }
        }
        if full(after: .allNames) { return try finish() }

        // Typos are looked for only when the query is no name or word as typed (nor an inflection
        // of one) and fewer than 3 taxa matched: a correctly spelled name is not padded with noise.
        if best.count < 3, !best.values.contains(where: { $0.tier <= .inflected }) {
            let typos = try fuzzyHits(db, query, lang: lang, needed: needed, filter: filter.sql, arguments: arguments([:]), vocabulary: vocabulary)
            if typos.capped { capped = true }
            // Per taxon, its closest name; among equally close ones the first read (its scientific name first).
            var closest: [Int64: Hit] = [:]
            for h in typos.hits where best[h.taxonID] == nil {
                if let seen = closest[h.taxonID], (seen.editDistance ?? 9) <= (h.editDistance ?? 9) { continue }
                closest[h.taxonID] = h
            }
            best.merge(closest) { $1 }
        }
        return try finish()
    }

    static func hit(_ row: CandidateName, match: NameMatcher.Match, lang: String) -> Hit {
        Hit(
            taxonID: row.taxonID, tier: match.tier, name: row.name, matchType: row.matchType, lang: row.lang,
            scientificName: row.scientificName, rank: row.rank.flatMap(Rank.init(rawValue:)),
            status: TaxonStatus(rawValue: row.status) ?? .accepted, nameLength: row.folded.unicodeScalars.count,
            languageOrder: languageOrder(row.lang, lang),
            atEnd: match.atEnd, atStart: match.atStart, accentMismatch: match.accentMismatch)
    }

    /// 0: the user's language (or a scientific name); 1: English; 2: another language.
    static func languageOrder(_ nameLang: String?, _ lang: String) -> Int {
        switch nameLang {
        case nil: 0
        case lang?: 0
        case let other? where TaxonomyStore.primaryLanguage(other) == TaxonomyStore.primaryLanguage(lang): 0
        case "en"?: 1
        default: 2
        }
    }

    /// Where `needle` occurs as a contiguous run in `words`, if it does.
    static func position(of needle: [String], in words: [String]) -> Int? {
        guard !needle.isEmpty, needle.count <= words.count else { return nil }
        for start in 0...(words.count - needle.count) where words[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }

    /// The largest typo distance allowed for a query: 2 from five characters on, else 1.
    static func allowedDistance(_ folded: String) -> Int { folded.count >= 5 ? 2 : 1 }

    /// Taxa whose names hold the query's words (those of four letters or more) within one edit
    /// (words under 5 letters) or two, found through the word vocabulary (`WordVocabulary`): the
    /// close words of each query word, then the taxa holding one of them for every such word
    /// (`fts_taxa`), then their names judged here. A name's distance is the smaller of its edit
    /// distance to the whole query and the sum, over query words, of each word's distance to its
    /// closest word of the name (a word of three letters or fewer must start a word of the name
    /// as typed); at most 1 under five letters, 2 from five. A query without a word of four
    /// letters or more is never matched by typos (too many near neighbours).
    ///
    /// Close words are taken one edit at a time: once `needed` taxa are within k edits, words
    /// k + 1 edits away (`elegans` for `elefant`) are not read, and the result is `capped`.
    static func fuzzyHits(
        _ db: Database, _ query: SearchQuery, lang: String, needed: Int, filter: String, arguments: StatementArguments,
        vocabulary: VocabularyCache
    ) throws -> (hits: [Hit], capped: Bool) {
        let words = query.tokens
        let long = Array(Set(words.filter { $0.unicodeScalars.count >= WordVocabulary.shortestWord })).sorted()
        guard !long.isEmpty else { return ([], false) }
        var close: [[(word: String, distance: Int)]] = []
        for word in long {
            var found: [(word: String, distance: Int)]
            if word.unicodeScalars.count == WordVocabulary.shortestWord {
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
        // Short words start a word of the name as typed, or the whole name is within reach: first the
        // taxa with the short words as prefixes, then (whole names only) those of about the query's length.
        let short = words.filter { $0.unicodeScalars.count < WordVocabulary.shortestWord }.map { "\"\($0)\"*" }
        let farthest = close.map { $0.map(\.distance).max() ?? 0 }.max() ?? 0
        var hits: [Hit] = []
        var seenTaxa: Set<Int64> = []
        for k in 1...max(1, farthest) {
            let alternatives = close.map { words in
                "(" + words.filter { $0.distance <= k }.map { "\"\($0.word)\"" }.joined(separator: " OR ") + ")"
            }
            guard !alternatives.contains("()") else { continue }
            var passes = [(alternatives + short).joined(separator: " AND ")]
            if !short.isEmpty { passes.append(alternatives.joined(separator: " AND ")) }
            var rows: [CandidateName] = []
            var stageTaxa: Set<Int64> = []
            for (i, expression) in passes.enumerated() {
                let taxa = try Int64.fetchAll(db.cachedStatement(sql: "SELECT rowid FROM fts_taxa WHERE fts_taxa MATCH ? LIMIT \(fuzzyCap)"), arguments: [expression])
                    .filter { !seenTaxa.contains($0) }
                guard !taxa.isEmpty else { continue }
                if i == 0 { stageTaxa.formUnion(taxa) }
                var args = arguments
                args += ["taxa": TaxonomyStore.jsonArray(taxa), "shortest": q.count - limit, "longest": q.count + limit]
                let lengths = i == 0 ? "" : " AND length(s.folded) BETWEEN :shortest AND :longest"
                rows += try CandidateName.fetchAll(db.cachedStatement(sql: namesOfTaxaSQL(lengths + filter)), arguments: args)
            }
            // Taxa read whole in the first pass are settled; the second pass read only some names.
            seenTaxa.formUnion(stageTaxa)
            for row in rows {
                let name = Array(row.folded.unicodeScalars)
                var distance = abs(name.count - q.count) <= limit ? EditDistance.distance(q, name, limit: limit) : nil
                let nameWords = SearchQuery.words(ofFolded: row.folded).map { Array($0.unicodeScalars) }
                if let perWord = wordDistance(queryWords, nameWords: nameWords, limit: limit) {
                    distance = min(distance ?? perWord, perWord)
                }
                guard let distance, distance > 0 else { continue }
                var h = hit(row, match: NameMatcher.Match(tier: .fuzzy), lang: lang)
                h.editDistance = distance
                hits.append(h)
            }
            let settled = Set(hits.filter { ($0.editDistance ?? 9) <= k }.map(\.taxonID))
            if settled.count >= needed, k < farthest { return (hits, true) }
        }
        return (hits, false)
    }

    /// The sum over query words of each one's distance to its closest name word not yet taken by an
    /// earlier query word (words of four letters or more, each within its own limit; shorter ones
    /// must start a name word), or nil
    /// when a word has no such match or the sum exceeds `limit`.
    static func wordDistance(_ queryWords: [[Unicode.Scalar]], nameWords: [[Unicode.Scalar]], limit: Int) -> Int? {
        var total = 0
        var unused = nameWords
        for word in queryWords {
            var best: (distance: Int, index: Int)?
            if word.count < WordVocabulary.shortestWord {
                if let i = unused.firstIndex(where: { $0.starts(with: word) }) { best = (0, i) }
            } else {
                let wordLimit = word.count >= 5 ? 2 : 1
                for (i, candidate) in unused.enumerated() where candidate.count >= WordVocabulary.shortestWord {
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

    // MARK: Listing

    /// Taxa chosen by filters alone, by scientific name then id, with a count up to `listingCap`.
    static func listing(_ db: Database, options: Options, filter: (sql: String, arguments: [String: (any DatabaseValueConvertible)?]), select: String) throws -> Page {
        let conditions = "WHERE 1\(filter.sql)"
        var args = filter.arguments
        args["limit"] = options.limit
        args["offset"] = options.offset
        var taxa = try Row.fetchAll(db, sql: select + " \(conditions) ORDER BY t.scientific_name, t.id LIMIT :limit OFFSET :offset",
            arguments: TaxonomyStore.arguments(options.lang, args)).map(TaxonomyStore.taxon(from:))
        try Homonyms.disambiguate(&taxa, in: db)
        let counted = try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT 1 FROM taxa t \(conditions) LIMIT \(listingCap + 1))",
            arguments: StatementArguments(filter.arguments)) ?? 0
        let results = taxa.map { taxon in
            SearchResult(
                id: taxon.id, scientificName: taxon.scientificName, disambiguation: taxon.disambiguation, preferredCommonName: taxon.preferredCommonName, preferredCommonNameLang: taxon.preferredCommonNameLang,
                matchedName: taxon.scientificName, matchType: "scientific", matchTier: nil, matchedLang: nil,
                rank: taxon.rank, conservationStatus: taxon.conservationStatus, status: taxon.status, relevanceScore: 0)
        }
        let total = min(counted, listingCap)
        let next = options.offset + options.limit < total ? options.offset + options.limit : nil
        return Page(results: results, nextOffset: next, fuzzy: false, total: total, totalCapped: counted > listingCap)
    }

    // MARK: Results

    static func results(_ db: Database, _ hits: [Hit], query: SearchQuery, lang: String, select: String, cache: TaxonCache) throws -> [SearchResult] {
        guard !hits.isEmpty else { return [] }
        // Taxa shown before (a child typing "red f", "red fo", "red fox") come from the cache.
        let taxa = try TaxonomyStore.disambiguatedTaxa(db, hits.map(\.taxonID), lang: lang, select: select, cache: cache)
        // Names of all-names hits, to say which one matched.
        var namesByTaxon: [Int64: [(name: String, folded: String, type: String, lang: String?)]] = [:]
        let unresolved = hits.filter { $0.name == nil }.map(\.taxonID)
        if !unresolved.isEmpty {
            for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT taxon_id, name, folded, match_type, lang FROM search_names WHERE taxon_id IN (SELECT value FROM json_each(:taxa)) ORDER BY id"),
                arguments: ["taxa": TaxonomyStore.jsonArray(unresolved)]) {
                namesByTaxon[row["taxon_id"], default: []].append((row["name"], row["folded"], row["match_type"], row["lang"]))
            }
        }
        let tokens = query.tokens
        return hits.compactMap { hit in
            guard let taxon = taxa[hit.taxonID] else { return nil }
            var name = hit.name ?? taxon.scientificName
            var type = hit.matchType ?? "scientific"
            var nameLang = hit.lang
            if hit.name == nil, let names = namesByTaxon[hit.taxonID] {
                // The name covering the most query words, preferring the user's language, then scientific.
                func covered(_ folded: String) -> Int {
                    let words = folded.split(separator: " ")
                    return tokens.filter { token in words.contains { $0.hasPrefix(token) } }.count
                }
                func preference(_ n: (name: String, folded: String, type: String, lang: String?)) -> Int {
                    if n.type == "common" && n.lang == lang { return 0 }
                    if n.type == "scientific" { return 1 }
                    if n.type == "common" { return 2 }
                    return 3
                }
                if let chosen = names.max(by: { a, b in
                    let (ca, cb) = (covered(a.folded), covered(b.folded))
                    return ca != cb ? ca < cb : preference(a) > preference(b)
                }) {
                    (name, type, nameLang) = (chosen.name, chosen.type, chosen.lang)
                }
            }
            return SearchResult(
                id: taxon.id, scientificName: taxon.scientificName, disambiguation: taxon.disambiguation, preferredCommonName: taxon.preferredCommonName, preferredCommonNameLang: taxon.preferredCommonNameLang,
                matchedName: name, matchType: hit.tier == .fuzzy ? "fuzzy" : type,
                matchedNameType: hit.tier == .fuzzy ? type : nil, editDistance: hit.editDistance,
                matchTier: hit.tier.rawValue, matchedLang: nameLang,
                rank: taxon.rank, conservationStatus: taxon.conservationStatus, status: taxon.status,
                relevanceScore: hit.relevance)
        }
    }

    /// Sets each ordered hit's relevance: its group's score (`groupScore`) less a step for each
    /// hit before it in the group, so scores fall strictly with rank across the whole list.
    static func scored(_ hits: [Hit]) -> [Hit] {
        var out = hits
        var groupStart = 0
        for i in out.indices {
            if i > 0, groupScore(out[i]) != groupScore(out[i - 1]) { groupStart = i }
            let step = min(0.009, Double(i - groupStart) * 0.00001)
            out[i].relevance = ((groupScore(out[i]) - step) * 100_000).rounded() / 100_000
        }
        return out
    }

    /// Higher is better; comparable within one response. Groups are a tier (typos: an edit
    /// count), names lacking the query's accents apart; at least 0.01 lies between groups.
    static func groupScore(_ hit: Hit) -> Double {
        if hit.accentMismatch && hit.tier != .fuzzy {
            // Below every accent-agreeing tier but typos: 0.44 down to 0.37.
            switch hit.tier {
            case .exact, .exactFolded, .exactInflected: return 0.44
            case .wholeWord: return 0.43
            case .inflected: return 0.41
            case .prefix: return 0.39
            default: return 0.37
            }
        }
        switch hit.tier {
        case .exact: return 1.0
        case .exactFolded: return 0.95
        case .exactInflected: return 0.92
        case .wholeWord: return 0.9
        case .inflected: return 0.8
        case .prefix: return 0.7
        case .wordInternal: return 0.6
        case .allNames: return 0.5
        case .fuzzy: return 0.3 - 0.1 * Double(hit.editDistance ?? 2)
        }
    }
}

/// Why a search cannot run.
public enum SearchError: Error, Equatable {
    /// The `within` taxon is not in the database.
    case unknownTaxon(Int64)
}
