import GRDB

/// One searchable name read for judging, with the facts of its taxon that order hits
/// (`CandidateName.columns`, read by position from a cursor rather than copied as rows).
struct CandidateName: Sendable {
    var taxonID: Int64
    var name: String
    var folded: String
    var matchType: String
    var lang: String?
    var scientificName: String
    var rank: String?
    var status: String
    /// The name's head (`NameStructure`), when the database stores it.
    var head: String?
    /// The name's words with compound words split by `|`, when one is split.
    var parts: String?
    /// The taxon's prominence in thousandths (`Prominence`).
    var prominence: Int = 0

    /// The columns read, in order, from `search_names s`, `taxa t` and `joins(_:)`.
    static func columns(ranking: Bool) -> String {
        "s.taxon_id, s.name, s.folded, s.match_type, s.lang, t.scientific_name, t.rank, t.status, "
            + (ranking ? "h.head, h.parts, coalesce(p.prominence, 0)" : "NULL, NULL, 0")
    }

    /// How many columns `columns(ranking:)` reads.
    static let columnCount = 11

    /// `search_names s JOIN taxa t` and, with the ranking tables, their heads and prominence.
    static func from(ranking: Bool) -> String {
        "search_names s JOIN taxa t ON t.id = s.taxon_id"
            + (ranking ? " LEFT JOIN name_heads h ON h.name_id = s.id LEFT JOIN taxon_prominence p ON p.taxon_id = s.taxon_id" : "")
    }

    /// Every row of `statement` (selecting `columns(ranking:)` first).
    static func fetchAll(_ statement: Statement, arguments: StatementArguments) throws -> [CandidateName] {
        var out: [CandidateName] = []
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        while let row = try rows.next() { out.append(CandidateName(row)) }
        return out
    }

    /// The name's head: stored, or by rule (`NameStructure.head(ofFolded:lang:matchType:)`); a
    /// scientific name's or synonym's is its first word.
    var headWord: String? {
        if matchType == "common", let head { return head }
        return NameStructure.head(ofFolded: folded, lang: lang, matchType: matchType)
    }

    /// The name's words, each as its compound parts (one part for a word not split).
    var wordParts: [[String]] {
        if let parts {
            return parts.split(separator: " ").map { $0.split(separator: "|").map(String.init) }
        }
        return SearchQuery.words(ofFolded: folded).map { [$0] }
    }
}

extension CandidateName {
    /// A row whose first columns are `columns(ranking:)`, read by position (an extension, so the
    /// memberwise initializer stays).
    init(_ row: Row) {
        self.init(
            taxonID: row[0], name: row[1], folded: row[2], matchType: row[3], lang: row[4],
            scientificName: row[5], rank: row[6], status: row[7], head: row[8], parts: row[9], prominence: row[10] ?? 0)
    }
}
