import Foundation
import GRDB
import STOLProtocol

/// Completions for what a user has typed so far: distinct names, scientific and common, in which
/// a word starts with the prefix (`bear` → "Brown bear", `snow l` → "Snow leopard"), ranked by
/// search's score (`SearchScore`): an exact name, then a whole word, then a word start; the head
/// first; the requested language; the taxon's prominence (`l` suggests the lion before
/// *Lactococcus lactis*). Names that start with the prefix come from a range scan of the
/// folded-name index; names with a later word starting with it from the vocabulary of distinct
/// words (`fts_words`): the shortest words starting with the last word typed, then the taxa
/// holding one of them (and the earlier words) in the full-text index; and the names of the
/// best-known taxa (`ProminentNames`), so a prefix of a letter or two still finds them. All are
/// capped so a suggestion stays around a millisecond on millions of names.
public struct Autocomplete: Sendable {
    public let database: TaxonomyDatabase

    public init(database: TaxonomyDatabase) {
        self.database = database
    }

    /// Names read from the folded-name index, and taxa from the full-text index, before ranking;
    /// enough for a useful top 20.
    static let scanCap = 200
    /// Vocabulary words a partial last word may stand for, shortest first.
    static let wordCap = 60

    public func suggestions(prefix: String, limit: Int, lang: String, filters: SearchFilters = SearchFilters()) async throws -> [Suggestion] {
        let folded = TextFolding.fold(prefix)
        guard !folded.isEmpty, let query = try? SearchQuery.parse(prefix) else { return [] }
        let ranking = database.hasSearchRanking
        let columns = CandidateName.columns(ranking: ranking) + ", t.conservation"
        let from = CandidateName.from(ranking: ranking)
        let prominent = database.prominentNames
        // Typed without capitals, a prefix is a word of the language, not a scientific name.
        let lowerCase = !prefix.contains { $0.isUppercase }
        return try await database.read { db in
            let filter = filters.sql(range: nil)
            var args = filter.arguments
            args["p"] = folded
            // Names holding the prefix at a word start, read by position from a cursor.
            var rows: [(row: NameRow, found: Range<String.Index>)] = []
            func read(_ statement: Statement, _ arguments: [String: (any DatabaseValueConvertible)?]) throws {
                try statement.forEachStoredRow(StatementArguments(arguments), rowids: CandidateName.rowids) { row in
                    let name = NameRow(name: try CandidateName(row), conservation: try row.memberOrNull(ConservationStatus.self, Int32(CandidateName.columnCount), "taxa.conservation")?.rawValue)
                    if let found = Self.wordStart(of: folded, in: name.name.folded) { rows.append((name, found)) }
                }
            }
            try read(db.cachedStatement(sql: """
                SELECT \(columns) FROM \(from)
                WHERE s.folded >= :p AND s.folded < :p || char(1114111)\(filter.sql)
                ORDER BY s.folded LIMIT \(Self.scanCap)
                """), args)
            // Names with a later word starting with the prefix: taxa from the full-text index, then
            // their names that hold the prefix at all (`instr`, before each is checked here).
            if let expression = try Self.laterWordsExpression(query.tokens, in: db) {
                let taxa = try Int64.fetchAll(db.cachedStatement(sql: "SELECT rowid FROM fts_taxa WHERE fts_taxa MATCH ? LIMIT \(Self.scanCap)"),
                    arguments: [expression])
                if !taxa.isEmpty {
                    args["taxa"] = TaxonomyStore.jsonArray(taxa)
                    try read(db.cachedStatement(sql: """
                        SELECT \(columns) FROM \(from)
                        WHERE s.taxon_id IN (SELECT value FROM json_each(:taxa)) AND instr(s.folded, :p) > 0\(filter.sql)
                        """), args)
                }
            }
            // The best-known taxa's names, filtered here as the statements above filter.
            if ranking {
                let rank = filters.rank, conservation = filters.conservation
                for (name, found) in try prominent.names(withWordStarting: folded, in: db) where rank.map({ $0 == name.name.rank }) ?? true
                    && conservation.map({ set in name.conservation.flatMap(ConservationStatus.init(rawValue:)).map(set.contains) ?? false }) ?? true {
                    rows.append((name, found))
                }
            }
            let preferred = try Self.preferredNames(db, taxa: Set(rows.map(\.row.name.taxonID)))
            // Each distinct name once, ranked by small keys; suggestions are made for the winners only.
            var ranked: [RankedName] = []
            let tokens = query.tokens
            var seenRows: Set<DistinctName> = []
            for (i, (read, found)) in rows.enumerated() {
                let row = read.name
                guard seenRows.insert(DistinctName(row)).inserted else { continue }
                ranked.append(RankedName(
                    score: Self.score(row, found: found, folded: folded, tokens: tokens, lang: lang, lowerCase: lowerCase),
                    preferred: preferred.contains(PreferredName(taxon: row.taxonID, name: row.name)), length: row.folded.count, index: i))
            }
            ranked.sort { a, b in
                if a.score != b.score { return a.score > b.score }
                if a.preferred != b.preferred { return a.preferred }
                if a.length != b.length { return a.length < b.length }
                let x = rows[a.index].row.name.folded, y = rows[b.index].row.name.folded
                if x != y { return x < y }
                let p = rows[a.index].row.name.taxonID, q = rows[b.index].row.name.taxonID
                return p != q ? p < q : a.index < b.index
            }
            var seen: Set<String> = []
            var out: [Suggestion] = []
            for candidate in ranked {
                let read = rows[candidate.index].row, row = read.name
                guard seen.insert(row.folded).inserted else { continue }
                out.append(Suggestion(
                    text: row.name, taxonId: row.taxonID, matchType: row.matchType, lang: row.lang, scientificName: row.scientificName,
                    rank: row.rank, conservationStatus: read.conservation.flatMap(ConservationStatus.init(rawValue:))))
                if out.count == limit { break }
            }
            return out
        }
    }

    /// A suggestion's score (`SearchScore`): exact when the name is the prefix, else prefix (a
    /// word still being typed is no whole word); the head when the last word typed starts the
    /// name's head word (`NameStructure.isHead`, with `tokens`, the words typed). A scientific
    /// name or synonym completing a prefix typed without capitals (`lowerCase`) is no exact name
    /// (as in search: `pan` is no *Pan*) and weighs as a name in English does for another language
    /// (0.5): a child typing `ca` means a name of the language ("Cat", "Camel"), not *Capra
    /// hircus*, however well known the goat; `Ca` finds it as before.
    static func score(_ row: CandidateName, found: Range<String.Index>, folded: String, tokens: [String], lang: String, lowerCase: Bool) -> Double {
        let name = row.folded
        let end = found.upperBound
        let learned = lowerCase && row.matchType != "common"
        let tier: MatchTier = name == folded && !learned ? .exact : .prefix
        // The name's word in which the prefix ends, and whether it is the head word.
        let before = name[..<end]
        let wordIndex = SearchQuery.words(ofFolded: String(before)).count - 1
        let parts = row.wordParts
        let head = row.headWord
        let isHead = wordIndex >= 0 && wordIndex < parts.count && NameStructure.isHead(parts[wordIndex], head: head, tokens: tokens)
        let demoted = row.prominence <= Prominence.demoted
        let group = SearchScore.group(tier: tier, weak: demoted && tier != .exact, editDistance: nil)
        let coverage = SearchScore.weighsCoverage(group) ? Double(folded.count) / Double(max(name.count, 1)) : 0
        let quality = SearchScore.quality(
            head: isHead || tier == .exact,
            language: learned ? 0.5 : SearchScore.language(nameLang: row.lang, matchType: row.matchType, lang: lang), asTyped: true, prominence: row.prominence,
            coverage: coverage)
        return SearchScore.score(group: group, quality: group == 7 ? SearchScore.weak(tier: tier, base: quality) : quality)
    }

    /// The full-text expression for taxa with a word starting with the last of `tokens` (and the
    /// earlier ones as whole words): the last word itself or any of the `wordCap` shortest
    /// vocabulary words starting with it. A last word of one letter is left out (too many words
    /// start with it): the earlier words alone, or nil when there are none.
    static func laterWordsExpression(_ tokens: [String], in db: Database) throws -> String? {
        guard let last = tokens.last else { return nil }
        var parts = tokens.dropLast().map { "\"\($0)\"" }
        let padded = Array((" " + last).unicodeScalars)
        if padded.count >= 3 {
            // The vocabulary stores words padded with a space: those holding every trigram of " last"
            // (no phrase queries with detail=none), by length as rowids are, each confirmed as a word start.
            let grams = WordVocabulary.trigrams(of: padded).map(WordVocabulary.quoted)
            let rows = try String.fetchCursor(db.cachedStatement(sql: WordVocabulary.matchingWordsSQL + " LIMIT \(scanCap)"),
                arguments: ["m": grams.joined(separator: " AND ")])
            var alternatives = [last]
            let start = " " + last
            while alternatives.count <= wordCap, let word = try rows.next() {
                if word.hasPrefix(start), word != start + " " { alternatives.append(String(word.dropFirst().dropLast())) }
            }
            parts.append("(" + alternatives.map { "\"\($0)\"" }.joined(separator: " OR ") + ")")
        }
        return parts.isEmpty ? nil : parts.joined(separator: " AND ")
    }

    /// Where `prefix` starts a word of `folded` (at its start or after a non-letter), if it does.
    static func wordStart(of prefix: String, in folded: String) -> Range<String.Index>? {
        if prefix.utf8.allSatisfy({ $0 < 0x80 }), folded.utf8.allSatisfy({ $0 < 0x80 }) {
            return asciiWordStart(of: prefix, in: folded)
        }
        var searchFrom = folded.startIndex
        while let found = folded.range(of: prefix, range: searchFrom..<folded.endIndex) {
            if found.lowerBound == folded.startIndex { return found }
            let before = folded[folded.index(before: found.lowerBound)]
            if !(before.isLetter || before.isNumber) { return found }
            searchFrom = folded.index(after: found.lowerBound)
        }
        return nil
    }

    /// `wordStart` for ASCII text, byte by byte, without Foundation's locale-aware search.
    static func asciiWordStart(of prefix: String, in folded: String) -> Range<String.Index>? {
        func isWordByte(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
        // Native strings are contiguous UTF-8: searched in place, without copying either.
        func search(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Int? {
            guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
            for start in 0...(haystack.count - needle.count) where start == 0 || !isWordByte(haystack[start - 1]) {
                if UnsafeBufferPointer(rebasing: haystack[start..<start + needle.count]).elementsEqual(needle) { return start }
            }
            return nil
        }
        var folded = folded, prefix = prefix
        let found = folded.withUTF8 { haystack in prefix.withUTF8 { needle in search(haystack, needle) } }
        guard let start = found else { return nil }
        let lower = folded.utf8.index(folded.startIndex, offsetBy: start)
        return lower..<folded.utf8.index(lower, offsetBy: prefix.utf8.count)
    }

    /// One name read for suggesting: the name as search reads it, plus its taxon's conservation
    /// status (a suggestion shows it).
    struct NameRow: Sendable {
        var name: CandidateName
        var conservation: String?
    }

    struct PreferredName: Hashable {
        var taxon: Int64
        var name: String
    }

    /// A name as suggestions tell names apart: the same text of one taxon in another role or
    /// language is another row.
    struct DistinctName: Hashable {
        var taxon: Int64
        var folded: String
        var matchType: String
        var lang: String?

        init(_ row: CandidateName) {
            (taxon, folded, matchType, lang) = (row.taxonID, row.folded, row.matchType, row.lang)
        }
    }

    /// What orders one candidate: its score, whether it is its taxon's preferred name, its length
    /// in characters, and where its row is.
    struct RankedName {
        var score: Double
        var preferred: Bool
        var length: Int
        var index: Int
    }

    /// The preferred common names of `taxa`.
    static func preferredNames(_ db: Database, taxa: Set<Int64>) throws -> Set<PreferredName> {
        guard !taxa.isEmpty else { return [] }
        return Set(try db.storedRows("SELECT taxon_id, name, id FROM names WHERE is_preferred = 1 AND taxon_id IN (SELECT value FROM json_each(?))",
                                     [TaxonomyStore.jsonArray(Array(taxa))], rowids: [("names", 2)]) { row in
            PreferredName(taxon: try row.taxonID(0, "names.taxon_id"), name: try row.text(1, "names.name"))
        })
    }
}
