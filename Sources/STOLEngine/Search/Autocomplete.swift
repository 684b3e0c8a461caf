import Foundation
import GRDB
import STOLProtocol

/// Completions for what a user has typed so far: distinct names, scientific and common, in which
/// a word starts with the prefix (`bear` → "Brown bear", `snow l` → "Snow leopard"). Names that
/// start with it come from a range scan of the folded-name index. Names with a later word starting
/// with it come from the vocabulary of distinct words (`fts_words`): the shortest words starting
/// with the last word typed, then the taxa holding one of them (and the earlier words) in the
/// full-text index. Both are capped so a suggestion stays around a millisecond on millions of names.
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
        let columns = SearchService.nameColumns + ", t.conservation"
        return try await database.read { db in
            let filter = filters.sql(range: nil)
            var args = filter.arguments
            args["p"] = folded
            // Names holding the prefix at a word start, read by position from a cursor.
            var rows: [(row: NameRow, found: Range<String.Index>)] = []
            func read(_ statement: Statement, _ arguments: [String: (any DatabaseValueConvertible)?]) throws {
                let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(arguments))
                while let row = try cursor.next() {
                    let name = NameRow(name: CandidateName(row), conservation: row[8])
                    if let found = Self.wordStart(of: folded, in: name.name.folded) { rows.append((name, found)) }
                }
            }
            try read(db.cachedStatement(sql: """
                SELECT \(columns) FROM search_names s JOIN taxa t ON t.id = s.taxon_id
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
                        SELECT \(columns) FROM search_names s JOIN taxa t ON t.id = s.taxon_id
                        WHERE s.taxon_id IN (SELECT value FROM json_each(:taxa)) AND instr(s.folded, :p) > 0\(filter.sql)
                        """), args)
                }
            }
            let preferred = try Self.preferredNames(db, taxa: Set(rows.map(\.row.name.taxonID)))
            var candidates: [(suggestion: Suggestion, key: [Int], folded: String)] = []
            for (read, found) in rows {
                let row = read.name
                let rowFolded = row.folded
                let type = row.matchType
                let nameLang = row.lang
                let name = row.name
                let taxonID = row.taxonID
                let rank = row.rank.flatMap(Rank.init(rawValue:))
                let isPreferred = preferred.contains(PreferredName(taxon: taxonID, name: name))
                // Common names in the user's language (preferred ones first), scientific names,
                // English names, other languages, synonyms.
                let typeOrder: Int
                switch type {
                case "common" where SearchService.languageOrder(nameLang, lang) == 0: typeOrder = isPreferred ? 0 : 1
                case "scientific": typeOrder = 2
                case "common" where nameLang == "en": typeOrder = isPreferred ? 3 : 4
                case "common": typeOrder = 5
                default: typeOrder = 6
                }
                // The prefix as a whole word at the end ("Brown bear" for `bear`), as a whole word, or a word start.
                let end = found.upperBound
                let wholeWord = end == rowFolded.endIndex || !(rowFolded[end].isLetter || rowFolded[end].isNumber)
                let wordOrder = !wholeWord ? 2 : end == rowFolded.endIndex ? 0 : 1
                let key = [
                    rowFolded == folded ? 0 : 1, typeOrder, wordOrder, found.lowerBound == rowFolded.startIndex ? 0 : 1, rank == .species ? 0 : 1,
                    rowFolded.count, row.status == "accepted" ? 0 : 1,
                ]
                let suggestion = Suggestion(
                    text: name, taxonId: taxonID, matchType: type, lang: nameLang, scientificName: row.scientificName, rank: rank,
                    conservationStatus: read.conservation.flatMap(ConservationStatus.init(rawValue:)))
                candidates.append((suggestion, key, rowFolded))
            }
            candidates.sort { a, b in
                a.key != b.key ? a.key.lexicographicallyPrecedes(b.key) : (a.folded, a.suggestion.taxonId) < (b.folded, b.suggestion.taxonId)
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
    struct NameRow {
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
        let rows = try Row.fetchAll(db.cachedStatement(sql: "SELECT taxon_id, name FROM names WHERE is_preferred = 1 AND taxon_id IN (SELECT value FROM json_each(?))"),
            arguments: [TaxonomyStore.jsonArray(Array(taxa))])
        return Set(rows.map { PreferredName(taxon: $0[0], name: $0[1]) })
    }
}
