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
                for name in try prominent.names(in: db) where filters.rank.map({ $0 == name.name.rank }) ?? true
                    && filters.conservation.map({ set in name.conservation.flatMap(ConservationStatus.init(rawValue:)).map(set.contains) ?? false }) ?? true {
                    if let found = Self.wordStart(of: folded, in: name.name.folded) { rows.append((name, found)) }
                }
            }
            let preferred = try Self.preferredNames(db, taxa: Set(rows.map(\.row.name.taxonID)))
            var candidates: [(suggestion: Suggestion, score: Double, preferred: Bool, folded: String)] = []
            var seenRows: Set<String> = []
            for (read, found) in rows {
                let row = read.name
                guard seenRows.insert("\(row.taxonID)|\(row.folded)|\(row.matchType)|\(row.lang ?? "")").inserted else { continue }
                let isPreferred = preferred.contains(PreferredName(taxon: row.taxonID, name: row.name))
                let suggestion = Suggestion(
                    text: row.name, taxonId: row.taxonID, matchType: row.matchType, lang: row.lang, scientificName: row.scientificName,
                    rank: row.rank, conservationStatus: read.conservation.flatMap(ConservationStatus.init(rawValue:)))
                candidates.append((suggestion, Self.score(row, found: found, folded: folded, lang: lang, lowerCase: lowerCase), isPreferred, row.folded))
            }
            candidates.sort { a, b in
                if a.score != b.score { return a.score > b.score }
                if a.preferred != b.preferred { return a.preferred }
                if a.folded.count != b.folded.count { return a.folded.count < b.folded.count }
                return (a.folded, a.suggestion.taxonId) < (b.folded, b.suggestion.taxonId)
            }
            var seen: Set<String> = []
            var out: [Suggestion] = []
            for candidate in candidates where seen.insert(candidate.folded).inserted {
                out.append(candidate.suggestion)
                if out.count == limit { break }
            }
            return out
        }
    }

    /// A suggestion's score (`SearchScore`): exact when the name is the prefix, else prefix (a
    /// word still being typed is no whole word); the head when the last word typed starts the
    /// name's head word. A scientific name or synonym completing a prefix typed without capitals
    /// (`lowerCase`) is no exact name (as in search: `pan` is no *Pan*) and weighs as a name in
    /// English does for another language (0.5): a child typing `ca` means a name of the language
    /// ("Cat", "Camel"), not *Capra hircus*, however well known the goat; `Ca` finds it as before.
    static func score(_ row: CandidateName, found: Range<String.Index>, folded: String, lang: String, lowerCase: Bool) -> Double {
        let name = row.folded
        let end = found.upperBound
        let learned = lowerCase && row.matchType != "common"
        let tier: MatchTier = name == folded && !learned ? .exact : .prefix
        // The name's word in which the prefix ends, and whether it is the head word.
        let before = name[..<end]
        let wordIndex = SearchQuery.words(ofFolded: String(before)).count - 1
        let parts = row.wordParts
        let head = row.headWord
        let isHead = wordIndex >= 0 && wordIndex < parts.count && (parts[wordIndex].last == head || parts[wordIndex].joined() == head)
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
        let haystack = Array(folded.utf8), needle = Array(prefix.utf8)
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        func isWordByte(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
        for start in 0...(haystack.count - needle.count) where start == 0 || !isWordByte(haystack[start - 1]) {
            if haystack[start..<start + needle.count].elementsEqual(needle) {
                let lower = folded.utf8.index(folded.startIndex, offsetBy: start)
                return lower..<folded.utf8.index(lower, offsetBy: needle.count)
            }
        }
        return nil
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

    /// The preferred common names of `taxa`.
    static func preferredNames(_ db: Database, taxa: Set<Int64>) throws -> Set<PreferredName> {
        guard !taxa.isEmpty else { return [] }
        return Set(try db.storedRows("SELECT taxon_id, name, id FROM names WHERE is_preferred = 1 AND taxon_id IN (SELECT value FROM json_each(?))",
                                     [TaxonomyStore.jsonArray(Array(taxa))], rowids: [("names", 2)]) { row in
            PreferredName(taxon: try row.taxonID(0, "names.taxon_id"), name: try row.text(1, "names.name"))
        })
    }
}
