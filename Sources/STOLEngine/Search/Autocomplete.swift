import GRDB

/// Completions for what a user has typed so far: distinct names, scientific and common, that start
/// with the prefix. An index range scan over folded names, so it stays well under a millisecond.
public struct Autocomplete: Sendable {
    public let database: TaxonomyDatabase

    public init(database: TaxonomyDatabase) {
        self.database = database
    }

    /// Rows scanned before ranking; enough for a useful top 20 without touching the whole index.
    static let scanCap = 400

    public func suggestions(prefix: String, limit: Int, lang: String) async throws -> [Suggestion] {
        let folded = TextFolding.fold(prefix)
        guard !folded.isEmpty else { return [] }
        return try await database.read { db in
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT s.name, s.folded, s.taxon_id, s.match_type, s.lang, t.rank, t.status,
                    EXISTS (SELECT 1 FROM names n WHERE n.taxon_id = s.taxon_id AND n.name = s.name AND n.is_preferred = 1) AS preferred
                FROM search_names s JOIN taxa t ON t.id = s.taxon_id
                WHERE s.folded >= :p AND s.folded < :p || char(1114111)
                ORDER BY s.folded LIMIT \(Self.scanCap)
                """), arguments: ["p": folded])
            var candidates: [(suggestion: Suggestion, key: [Int], folded: String)] = rows.map { row in
                let type: String = row["match_type"]
                let nameLang: String? = row["lang"]
                let name: String = row["name"]
                let rowFolded: String = row["folded"]
                let rank = (row["rank"] as String?).flatMap(Rank.init(rawValue:))
                let preferred: Bool = row["preferred"]
                // Exact first; then common names in the user's language (preferred ones first), scientific
                // names, other common names, synonyms; species before higher ranks; shorter first.
                let typeOrder: Int
                switch type {
                case "common" where nameLang == lang || nameLang == "en": typeOrder = preferred ? 0 : 1
                case "scientific": typeOrder = 2
                case "common": typeOrder = 3
                default: typeOrder = 4
                }
                let key = [rowFolded == folded ? 0 : 1, typeOrder, rank == .species ? 0 : 1, name.count, (row["status"] as String) == "accepted" ? 0 : 1]
                return (Suggestion(text: name, taxonId: row["taxon_id"], matchType: type, lang: nameLang), key, rowFolded)
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

    /// A completion and the taxon it names.
    public struct Suggestion: Codable, Sendable, Equatable {
        public var text: String
        public var taxonId: Int64
        /// `scientific`, `common` or `synonym`.
        public var matchType: String
        public var lang: String?
    }
}
