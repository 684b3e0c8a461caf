import Foundation
import GRDB
import STOLProtocol

/// Full-text search over one taxonomy database, and listing by filters alone.
///
/// Every taxon is ranked by its single best-matching name, in tiers (`MatchTier`), and ordered by
/// one score (`SearchScore`): the tier, then whether a query word is the name's head
/// (`NameStructure`), the name's language, the taxon's prominence (`Prominence`) and the query as
/// typed. Names in the requested language and scientific names are searched first; names
/// in other languages only when those find no whole word (`otherLanguages`). Each query is also
/// searched as the lexicon and spelling variants read it (`QueryRewrites`). Typos are looked for
/// when fewer than 3 taxa matched and none as typed, never for a word the language knows
/// (`TypoGuard`); when no taxon holds every word, the best partial matches (`PartialMatch`). When
/// the best hit is a group, its best-known matching members follow it (`GroupMembers`). Queries
/// are never logged or stored.
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
        /// Whether names in languages other than the requested one were searched, because that
        /// language's names and the scientific names held no query word whole.
        public var otherLanguages = false
        /// Whether the results are partial matches: no taxon holds every query word.
        public var partial = false
    }

    /// How many candidates each tier may contribute; fixed (not derived from the page) so that
    /// every page of one query is cut from the same ordered list.
    static let exactCap = 1_000
    static let fullTextCap = 1_000
    /// Names whose head is a query word (or one of its forms).
    static let headCap = 1_000
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
        let context = Context(vocabulary: database.vocabularyCache, ranking: database.hasSearchRanking)
        let cache = database.taxonCache
        defer { database.loadVocabularyIfWanted() }
        return try await database.read { db in
            let range = try options.filters.within.map { id in
                guard let range = try SearchFilters.subtreeRange(db, of: id) else { throw SearchError.unknownTaxon(id) }
                return range
            }
            let filter = options.filters.sql(range: range)
            guard let query else { return try Self.listing(db, options: options, filter: filter, select: select) }
            let ranked = try Self.rankedHits(db, query, options, filter: filter, context: context)
            let hits = ranked.hits
            let window = Array(hits.dropFirst(options.offset).prefix(options.limit))
            let results = try Self.results(db, window, query: query, lang: options.lang, select: select, cache: cache)
            let next = options.offset + options.limit < hits.count ? options.offset + options.limit : nil
            return Page(
                results: results, nextOffset: next, fuzzy: hits.contains { $0.tier == .fuzzy }, total: hits.count, totalCapped: ranked.capped,
                otherLanguages: ranked.otherLanguages, partial: hits.contains { $0.tier == .partial })
        }
    }

    /// What a search reads besides the database: the vocabulary's cache and whether the ranking
    /// tables are there.
    struct Context: Sendable {
        var vocabulary: VocabularyCache
        var ranking: Bool
    }

    /// The ordered hits of `query`, whether the count is a lower bound, and whether other languages
    /// were searched.
    static func rankedHits(
        _ db: Database, _ query: SearchQuery, _ options: Options, filter: (sql: String, arguments: [String: (any DatabaseValueConvertible)?]),
        context: Context
    ) throws -> (hits: [Hit], capped: Bool, otherLanguages: Bool) {
        let lang = options.lang
        let needed = options.offset + options.limit
        let lexicon = Lexicon.of(lang)
        let rewrites = try QueryRewrites.of(query, lang: lang, lexicon: lexicon, in: db)
        var best: [Int64: Hit] = [:]
        var capped = false
        var metOtherLanguages = false
        let memo = SearchMemo()
        func merge(_ hits: [Hit]) {
            for hit in hits {
                if let existing = best[hit.taxonID], !Hit.ordered(hit, existing) { continue }
                best[hit.taxonID] = hit
            }
        }
        func gather(scope: Gathering.Scope) throws {
            for (index, rewrite) in rewrites.enumerated() {
                var gathering = Gathering(db: db, query: rewrite.query, lang: lang, scope: scope, filter: filter, context: context, needed: needed, memo: memo)
                try gathering.run(allTiers: index == 0)
                if gathering.capped { capped = true }
                if gathering.metOtherLanguages { metOtherLanguages = true }
                merge(gathering.hits.map { hit in
                    var hit = hit
                    hit.readAs = rewrite.readAs
                    return hit.scored(lang: lang, queryLength: hit.queryLength)
                })
            }
        }
        /// Whether an organism matched with every query word whole (or in another number).
        func found() -> Bool { best.values.contains { $0.tier <= .inflected && !$0.weak } }

        try gather(scope: .requested)
        var otherLanguages = false
        // Every scope reads the same names; another finds more only if some were in other languages.
        if !found(), metOtherLanguages {
            try gather(scope: .all)
            otherLanguages = best.values.contains { $0.matchType == "common" && languageOrder($0.lang, lang) > 0 }
        }
        // Typos only when the query is no name or word as typed (nor an inflection of one) and
        // fewer than 3 taxa matched: a correctly spelled name is not padded with noise.
        if best.count < 3, !found() {
            let guarded = try TypoGuard.knownWords(query.tokens, lang: lang, lexicon: lexicon, in: db)
            let typos = try fuzzyHits(db, query, lang: lang, needed: needed, guarded: guarded, filter: filter, context: context)
            if typos.capped { capped = true }
            var closest: [Int64: Hit] = [:]
            for h in typos.hits where best[h.taxonID] == nil {
                // Per taxon its closest name; of names as close, the best scored (the asked language's).
                let seen = closest[h.taxonID]
                if let seen, (h.editDistance ?? 9) > (seen.editDistance ?? 9) { continue }
                let hit = h.scored(lang: lang, queryLength: query.folded.unicodeScalars.count)
                if let seen, (hit.editDistance ?? 9) == (seen.editDistance ?? 9), !Hit.ordered(hit, seen) { continue }
                closest[h.taxonID] = hit
            }
            best.merge(closest) { $1 }
        }
        // A word whose groups the language names with learned words: through English (`pato` → ducks).
        merge(try GroupsThroughEnglish.hits(db, query, lang: lang, hits: best.values, filter: filter, context: context))
        if !best.values.contains(where: { !$0.demoted }) {
            merge(try PartialMatch.hits(db, query, lang: lang, lexicon: lexicon, filter: filter, context: context))
        }
        // Sorted by position: a hit is a large value, and moving hundreds of them costs more than the comparisons.
        let unordered = Array(best.values)
        var hits = unordered.indices.sorted { Hit.ordered(unordered[$0], unordered[$1]) }.map { unordered[$0] }
        var membership = try GroupRanking.rank(&hits, needed: needed, lang: lang, in: db)
        try GroupMembers.follow(&hits, membership: &membership)
        return (scored(hits), capped, otherLanguages)
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

    /// Sets each ordered hit's relevance: its score, lowered where needed so that scores fall
    /// strictly with rank across the whole list (group members moved up, ties).
    static func scored(_ hits: [Hit]) -> [Hit] {
        var out = hits
        var previous = Double.infinity
        for i in out.indices {
            var value = out[i].score
            if value >= previous { value = previous - 0.000_001 }
            value = (value * 1_000_000).rounded() / 1_000_000
            out[i].relevance = value
            previous = value
        }
        return out
    }

    // MARK: Listing

    /// Taxa chosen by filters alone, by scientific name then id, with a count up to `listingCap`.
    static func listing(_ db: Database, options: Options, filter: (sql: String, arguments: [String: (any DatabaseValueConvertible)?]), select: String) throws -> Page {
        let conditions = "WHERE 1\(filter.sql)"
        var args = filter.arguments
        args["limit"] = options.limit
        args["offset"] = options.offset
        var taxa = try db.storedRows(select + " \(conditions) ORDER BY t.scientific_name, t.id LIMIT :limit OFFSET :offset",
            TaxonomyStore.arguments(options.lang, args), rowids: TaxonomyStore.taxaRowIDs, TaxonomyStore.taxon(from:))
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
            try db.cachedStatement(sql: "SELECT taxon_id, name, folded, match_type, lang, id FROM search_names WHERE taxon_id IN (SELECT value FROM json_each(:taxa)) ORDER BY id")
                .forEachStoredRow(["taxa": TaxonomyStore.jsonArray(unresolved)], rowids: [("search_names", 5)]) { row in
                    namesByTaxon[try row.taxonID(0, "search_names.taxon_id"), default: []].append(
                        (try row.text(1, "search_names.name"), try row.text(2, "search_names.folded"), try row.text(3, "search_names.match_type"),
                         try row.textOrNull(4, "search_names.lang")))
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
                matchTier: hit.tier.rawValue, matchedLang: nameLang, readAs: hit.readAs,
                rank: taxon.rank, conservationStatus: taxon.conservationStatus, status: taxon.status,
                relevanceScore: hit.relevance)
        }
    }
}

/// Why a search cannot run.
public enum SearchError: Error, Equatable {
    /// The `within` taxon is not in the database.
    case unknownTaxon(Int64)
}
