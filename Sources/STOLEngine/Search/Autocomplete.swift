import Foundation
import GRDB

/// Completions for what a user has typed so far: distinct names, scientific and common, in which
/// a word starts with the prefix (`bear` → "Brown bear", `snow l` → "Snow leopard"). Names that
/// start with it come from a range scan of the folded-name index, names with a later word from
/// the full-text index, both capped so a suggestion stays around a millisecond.
public struct Autocomplete: Sendable {
    public let database: TaxonomyDatabase

    public init(database: TaxonomyDatabase) {
        self.database = database
    }

    /// Rows scanned from each index before ranking; enough for a useful top 20.
    static let scanCap = 400

    public func suggestions(prefix: String, limit: Int, lang: String, filters: SearchFilters = SearchFilters()) async throws -> [Suggestion] {
        let folded = TextFolding.fold(prefix)
        guard !folded.isEmpty, let query = try? SearchQuery.parse(prefix) else { return [] }
        let columns = "s.name, s.folded, s.taxon_id, s.match_type, s.lang, t.scientific_name, t.rank, t.conservation, t.status"
        return try await database.read { db in
            let filter = filters.sql(range: nil)
            var args = filter.arguments
            args["p"] = folded
            var rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT \(columns) FROM search_names s JOIN taxa t ON t.id = s.taxon_id
                WHERE s.folded >= :p AND s.folded < :p || char(1114111)\(filter.sql)
                ORDER BY s.folded LIMIT \(Self.scanCap)
                """), arguments: StatementArguments(args))
            // Names with a later word starting with the prefix: taxa from the full-text index.
            let taxa = try Int64.fetchAll(db.cachedStatement(sql: "SELECT rowid FROM fts_taxa WHERE fts_taxa MATCH ? LIMIT \(Self.scanCap)"),
                arguments: [query.ftsExpression])
            if !taxa.isEmpty {
                rows += try Row.fetchAll(db, sql: """
                    SELECT \(columns) FROM search_names s JOIN taxa t ON t.id = s.taxon_id
                    WHERE s.taxon_id IN (\(taxa.map(String.init).joined(separator: ",")))\(filter.sql)
                    """, arguments: StatementArguments(filter.arguments))
            }
            let preferred = try Self.preferredNames(db, taxa: Set(rows.map { $0[2] as Int64 }))
            var candidates: [(suggestion: Suggestion, key: [Int], folded: String)] = []
            for row in rows {
                let rowFolded: String = row[1]
                guard let found = Self.wordStart(of: folded, in: rowFolded) else { continue }
                let type: String = row[3]
                let nameLang: String? = row[4]
                let name: String = row[0]
                let taxonID: Int64 = row[2]
                let rank = (row[6] as String?).flatMap(Rank.init(rawValue:))
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
                    rowFolded.count, (row[8] as String) == "accepted" ? 0 : 1,
                ]
                let suggestion = Suggestion(
                    text: name, taxonId: taxonID, matchType: type, lang: nameLang, scientificName: row[5], rank: rank,
                    conservationStatus: (row[7] as String?).flatMap(ConservationStatus.init(rawValue:)))
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

    /// Where `prefix` starts a word of `folded` (at its start or after a non-letter), if it does.
    static func wordStart(of prefix: String, in folded: String) -> Range<String.Index>? {
        var searchFrom = folded.startIndex
        while let found = folded.range(of: prefix, range: searchFrom..<folded.endIndex) {
            if found.lowerBound == folded.startIndex { return found }
            let before = folded[folded.index(before: found.lowerBound)]
            if !(before.isLetter || before.isNumber) { return found }
            searchFrom = folded.index(after: found.lowerBound)
        }
        return nil
    }

    struct PreferredName: Hashable {
        var taxon: Int64
        var name: String
    }

    /// The preferred common names of `taxa`.
    static func preferredNames(_ db: Database, taxa: Set<Int64>) throws -> Set<PreferredName> {
        guard !taxa.isEmpty else { return [] }
        let rows = try Row.fetchAll(db, sql: "SELECT taxon_id, name FROM names WHERE is_preferred = 1 AND taxon_id IN (\(taxa.map(String.init).joined(separator: ",")))")
        return Set(rows.map { PreferredName(taxon: $0[0], name: $0[1]) })
    }

    /// A completion and the taxon it names.
    public struct Suggestion: Codable, Sendable, Equatable {
        public var text: String
        public var taxonId: Int64
        /// `scientific`, `common` or `synonym`.
        public var matchType: String
        /// The language of `text`; absent for scientific names.
        public var lang: String?
        public var scientificName: String
        public var rank: Rank?
        public var conservationStatus: ConservationStatus?
    }
}
