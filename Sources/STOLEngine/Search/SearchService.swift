import Foundation
import GRDB

/// Full-text search over one taxonomy database.
///
/// Results come in tiers, best first: the whole query equals a name (exact); a name holds the query
/// as whole words (`African elephant` for "elephant"); a name starts with it (`Panthera` for
/// "panth"); then every other FTS5 match, ranked by bm25. Within a tier, names in the user's
/// language come first. When fewer than three taxa match, names one or two edits away (typos
/// anywhere, even in the first letters) are added from the trigram index. Queries are never logged
/// or stored.
public struct SearchService: Sendable {
    public let database: TaxonomyDatabase

    public init(database: TaxonomyDatabase) {
        self.database = database
    }

    /// Search options besides the query.
    public struct Options: Sendable {
        public var rank: Rank?
        public var conservation: ConservationStatus?
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
    }

    /// How many candidates each tier may contribute; fixed so that every page of one query is cut
    /// from the same ordered list (no duplicates, nothing skipped).
    static let exactCap = 1_000
    static let prefixCap = 2_000
    static let fullTextCap = 5_000
    /// Candidate names checked for typos; the rarest-trigram lookup keeps real candidate sets far below it.
    static let fuzzyCap = 50_000

    public func search(_ query: SearchQuery, options: Options) async throws -> Page {
        let hits = try await database.read { db in try Self.rankedHits(db, query, options) }
        let fuzzy = hits.contains { $0.tier == .fuzzy }
        let window = Array(hits.dropFirst(options.offset).prefix(options.limit))
        let select = TaxonomyStore.selectTaxon(in: database)
        let results = try await database.read { db in try Self.results(db, window, query: query, lang: options.lang, select: select) }
        let next = options.offset + options.limit < hits.count ? options.offset + options.limit : nil
        return Page(results: results, nextOffset: next, fuzzy: fuzzy)
    }

    // MARK: Candidates

    enum Tier: Int, Comparable {
        case exact, wholeWord, prefix, fullText, fuzzy
        static func < (a: Tier, b: Tier) -> Bool { a.rawValue < b.rawValue }
    }

    struct Hit: Sendable {
        var taxonID: Int64
        var tier: Tier
        /// The matched name and its type; nil for full-text hits until resolved.
        var name: String?
        var matchType: String?
        var scientificName: String
        var rank: Rank?
        var status: TaxonStatus
        var bm25 = 0.0
        var editDistance: Int?
        var nameLength = 0
        /// 0: the user's language or a scientific name; 1: English; 2: another language.
        var languageOrder = 0
        /// The query is the name's last word(s), as in "Asian elephant" (English head nouns).
        var atEnd = false

        /// Sort key: tier, then (full text) bm25 or (fuzzy) edits, the user's language, head-noun
        /// matches, names before synonyms, accepted taxa first, species before higher ranks,
        /// shorter names, and finally name and id.
        static func ordered(_ a: Hit, _ b: Hit) -> Bool {
            if a.tier != b.tier { return a.tier < b.tier }
            if a.tier == .fullText, a.bm25 != b.bm25 { return a.bm25 < b.bm25 }
            if a.tier == .fuzzy, a.editDistance != b.editDistance { return (a.editDistance ?? 9) < (b.editDistance ?? 9) }
            if a.languageOrder != b.languageOrder { return a.languageOrder < b.languageOrder }
            if a.atEnd != b.atEnd { return a.atEnd }
            let synonymA = a.matchType == "synonym", synonymB = b.matchType == "synonym"
            if synonymA != synonymB { return !synonymA }
            if a.status != b.status { return statusOrder(a.status) < statusOrder(b.status) }
            let speciesA = a.rank == .species, speciesB = b.rank == .species
            if speciesA != speciesB { return speciesA }
            if a.nameLength != b.nameLength { return a.nameLength < b.nameLength }
            if a.scientificName != b.scientificName { return a.scientificName < b.scientificName }
            return a.taxonID < b.taxonID
        }

        static func statusOrder(_ s: TaxonStatus) -> Int {
            switch s {
            case .accepted: 0
            case .doubtful: 1
            case .synonym: 2
            }
        }
    }

    static func rankedHits(_ db: Database, _ query: SearchQuery, _ options: Options) throws -> [Hit] {
        var filter = ""
        var filterArguments: [String: (any DatabaseValueConvertible)?] = [:]
        if let rank = options.rank {
            filter += " AND t.rank = :rank"
            filterArguments["rank"] = rank.rawValue
        }
        if let conservation = options.conservation {
            filter += " AND t.conservation = :conservation"
            filterArguments["conservation"] = conservation.rawValue
        }
        func arguments(_ extra: [String: (any DatabaseValueConvertible)?]) -> StatementArguments {
            StatementArguments(filterArguments.merging(extra) { $1 })
        }

        var best: [Int64: Hit] = [:]
        func keep(_ hit: Hit) {
            if let existing = best[hit.taxonID], !Hit.ordered(hit, existing) { return }
            best[hit.taxonID] = hit
        }

        let nameColumns = "s.taxon_id, s.name, s.folded, s.match_type, s.lang, length(s.folded) AS len, t.scientific_name, t.rank, t.status"
        let lang = options.lang
        let exact = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT \(nameColumns) FROM search_names s JOIN taxa t ON t.id = s.taxon_id
            WHERE s.folded = :q\(filter) LIMIT \(exactCap)
            """), arguments: arguments(["q": query.folded]))
        for row in exact { keep(hit(row, tier: .exact, lang: lang)) }

        // Names holding every query word, in order, as whole words: candidates from an FTS5 phrase.
        let tokens = query.tokens
        let wholeWord = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT \(nameColumns) FROM search_names s JOIN taxa t ON t.id = s.taxon_id
            WHERE s.taxon_id IN (SELECT rowid FROM fts_taxa WHERE fts_taxa MATCH :phrase LIMIT \(prefixCap))\(filter)
            """), arguments: arguments(["phrase": "\"" + tokens.joined(separator: " ") + "\""]))
        for row in wholeWord {
            let words = SearchQuery.tokenize(row["folded"])
            guard let position = Self.position(of: tokens, in: words) else { continue }
            var h = hit(row, tier: .wholeWord, lang: lang)
            h.atEnd = position + tokens.count == words.count
            keep(h)
        }

        let prefix = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT \(nameColumns) FROM search_names s JOIN taxa t ON t.id = s.taxon_id
            WHERE s.folded > :q AND s.folded < :q || char(1114111)\(filter)
            ORDER BY s.folded LIMIT \(prefixCap)
            """), arguments: arguments(["q": query.folded]))
        for row in prefix { keep(hit(row, tier: .prefix, lang: lang)) }

        let fullText = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT f.rowid AS taxon_id, bm25(fts_taxa, 0.0, 10.0, 5.0, 2.0) AS score, t.scientific_name, t.rank, t.status
            FROM fts_taxa f JOIN taxa t ON t.id = f.rowid
            WHERE fts_taxa MATCH :match\(filter)
            ORDER BY score, f.rowid LIMIT \(fullTextCap)
            """), arguments: arguments(["match": query.ftsExpression]))
        for row in fullText {
            var h = Hit(
                taxonID: row["taxon_id"], tier: .fullText, scientificName: row["scientific_name"],
                rank: (row["rank"] as String?).flatMap(Rank.init(rawValue:)), status: TaxonStatus(rawValue: row["status"]) ?? .accepted)
            h.bm25 = row["score"]
            keep(h)
        }

        if best.count < 3 {
            for h in try fuzzyHits(db, query, lang: lang, filter: filter, arguments: arguments([:])) where best[h.taxonID] == nil {
                keep(h)
            }
        }
        return best.values.sorted(by: Hit.ordered)
    }

    static func hit(_ row: Row, tier: Tier, lang: String) -> Hit {
        let nameLang: String? = row["lang"]
        let languageOrder: Int
        switch nameLang {
        case nil: languageOrder = 0
        case lang?: languageOrder = 0
        case let other? where TaxonomyStore.primaryLanguage(other) == TaxonomyStore.primaryLanguage(lang): languageOrder = 0
        case "en"?: languageOrder = 1
        default: languageOrder = 2
        }
        return Hit(
            taxonID: row["taxon_id"], tier: tier, name: row["name"], matchType: row["match_type"],
            scientificName: row["scientific_name"], rank: (row["rank"] as String?).flatMap(Rank.init(rawValue:)),
            status: TaxonStatus(rawValue: row["status"]) ?? .accepted, nameLength: row["len"], languageOrder: languageOrder)
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

    /// Names within the allowed distance of the query. By the q-gram lemma a name within d edits
    /// misses at most 3·d of the query's padded trigrams, so any 3·d + 1 of them find every such
    /// name; taking the rarest keeps the candidates few even on millions of names.
    static func fuzzyHits(_ db: Database, _ query: SearchQuery, lang: String, filter: String, arguments: StatementArguments) throws -> [Hit] {
        let q = Array(query.folded)
        guard q.count >= 3 else { return [] }
        let limit = allowedDistance(query.folded)
        let padded = Array(" " + query.folded + " ")
        var trigrams: [String] = []
        for i in 0..<(padded.count - 2) {
            let gram = String(padded[i..<i + 3])
            if !trigrams.contains(gram) { trigrams.append(gram) }
        }
        // One equality lookup per trigram: fts5vocab answers `term = ?` from its index, but scans for IN.
        let vocabulary = try db.makeStatement(sql: "SELECT doc FROM fts_trigram_vocab WHERE term = ?")
        var frequency: [String: Int] = [:]
        for gram in trigrams { frequency[gram] = try Int.fetchOne(vocabulary, arguments: [gram]) ?? 0 }
        // A trigram no name holds finds nothing; it still counts as one of the 3·d + 1.
        let chosen = trigrams.sorted { (frequency[$0] ?? 0, $0) < (frequency[$1] ?? 0, $1) }.prefix(3 * limit + 1)
        let present = chosen.filter { (frequency[$0] ?? 0) > 0 }
        guard !present.isEmpty else { return [] }
        let expression = present.map { "\"\($0.replacingOccurrences(of: "\"", with: "\"\""))\"" }.joined(separator: " OR ")
        let singleWord = !query.folded.contains(" ")
        var args = arguments
        args += ["trigrams": expression, "shortest": q.count - limit, "longest": q.count + limit]
        // A query of several words is compared with whole names only, so their length must be close.
        let lengthFilter = singleWord ? "" : " AND length(s.folded) BETWEEN :shortest AND :longest"
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT s.taxon_id, s.name, s.folded, s.match_type, s.lang, length(s.folded) AS len, t.scientific_name, t.rank, t.status
            FROM search_names s JOIN taxa t ON t.id = s.taxon_id
            WHERE s.id IN (SELECT rowid FROM fts_trigram WHERE fts_trigram MATCH :trigrams)\(lengthFilter)\(filter)
            LIMIT \(fuzzyCap)
            """), arguments: args)
        var hits: [Hit] = []
        for row in rows {
            let folded: String = row["folded"]
            var distance = abs(folded.count - q.count) <= limit ? EditDistance.distance(q, Array(folded), limit: limit) : nil
            if singleWord {
                for word in folded.split(separator: " ") where word.count > 1 && abs(word.count - q.count) <= limit {
                    if let d = EditDistance.distance(q, Array(word), limit: limit) { distance = min(distance ?? d, d) }
                }
            }
            guard let distance, distance > 0 else { continue }
            var h = hit(row, tier: .fuzzy, lang: lang)
            h.editDistance = distance
            hits.append(h)
        }
        return hits
    }

    // MARK: Results

    static func results(_ db: Database, _ hits: [Hit], query: SearchQuery, lang: String, select: String) throws -> [SearchResult] {
        guard !hits.isEmpty else { return [] }
        let ids = hits.map(\.taxonID)
        let placeholders = ids.map { String($0) }.joined(separator: ",")
        var taxa: [Int64: Taxon] = [:]
        for row in try Row.fetchAll(db, sql: select + " WHERE t.id IN (\(placeholders))", arguments: TaxonomyStore.arguments(lang)) {
            let taxon = TaxonomyStore.taxon(from: row)
            taxa[taxon.id] = taxon
        }
        // Names of full-text hits, to say which one matched.
        var namesByTaxon: [Int64: [(name: String, folded: String, type: String, lang: String?)]] = [:]
        let unresolved = hits.filter { $0.name == nil }.map { String($0.taxonID) }
        if !unresolved.isEmpty {
            for row in try Row.fetchAll(db, sql: "SELECT taxon_id, name, folded, match_type, lang FROM search_names WHERE taxon_id IN (\(unresolved.joined(separator: ","))) ORDER BY id") {
                namesByTaxon[row["taxon_id"], default: []].append((row["name"], row["folded"], row["match_type"], row["lang"]))
            }
        }
        let tokens = query.tokens
        return hits.compactMap { hit in
            guard let taxon = taxa[hit.taxonID] else { return nil }
            var name = hit.name ?? taxon.scientificName
            var type = hit.matchType ?? "scientific"
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
                    name = chosen.name
                    type = chosen.type
                }
            }
            return SearchResult(
                id: taxon.id, scientificName: taxon.scientificName, preferredCommonName: taxon.preferredCommonName,
                matchedName: name, matchType: hit.tier == .fuzzy ? "fuzzy" : type,
                matchedNameType: hit.tier == .fuzzy ? type : nil, editDistance: hit.editDistance,
                rank: taxon.rank, conservationStatus: taxon.conservationStatus, status: taxon.status,
                relevanceScore: relevance(hit))
        }
    }

    /// Higher is better; comparable within one response.
    static func relevance(_ hit: Hit) -> Double {
        let score: Double
        switch hit.tier {
        case .exact: score = 1.0
        case .wholeWord: score = 0.9 - min(0.05, Double(hit.nameLength) / 1000)
        case .prefix: score = 0.85 - min(0.05, Double(hit.nameLength) / 1000)
        case .fullText:
            let s = max(0, -hit.bm25)
            score = 0.2 + 0.6 * s / (1 + s)
        case .fuzzy: score = 0.15 - 0.05 * Double(hit.editDistance ?? 2)
        }
        return (score * 10_000).rounded() / 10_000
    }
}

/// One search result.
public struct SearchResult: Codable, Sendable, Equatable {
    public var id: Int64
    public var scientificName: String
    public var preferredCommonName: String?
    /// The name that matched: may be a common name or a synonym.
    public var matchedName: String
    /// `scientific`, `common`, `synonym`, or `fuzzy` for a typo-tolerant match.
    public var matchType: String
    /// For a fuzzy match, which kind of name it was close to.
    public var matchedNameType: String?
    /// For a fuzzy match, the number of edits between the query and the name.
    public var editDistance: Int?
    public var rank: Rank?
    public var conservationStatus: ConservationStatus?
    public var status: TaxonStatus
    public var relevanceScore: Double
}
