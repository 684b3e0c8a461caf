import GRDB
import STOLProtocol

/// One searchable name read for judging, with the facts of its taxon that order hits
/// (`CandidateName.columns`, read by position from a cursor rather than copied as rows).
struct CandidateName: Sendable {
    var taxonID: Int64
    var name: String
    var folded: String
    var matchType: String
    var lang: String?
    var scientificName: String
    var rank: Rank?
    var status: TaxonStatus
    /// The name's head (`NameStructure`), when the database stores it.
    var head: String?
    /// The name's words with compound words split by `|`, when one is split.
    var parts: String?
    /// The taxon's prominence in thousandths (`Prominence`).
    var prominence: Int = 0

    /// The columns read, in order, from `search_names s`, `taxa t` and `joins(_:)`.
    static func columns(ranking: Bool) -> String {
        "s.taxon_id, s.name, s.folded, s.match_type, s.lang, t.scientific_name, t.rank, t.status, "
            + (ranking ? "h.head, h.parts, coalesce(p.prominence, 0)" : "NULL, NULL, 0") + ", s.id"
    }

    /// How many columns `columns(ranking:)` reads.
    static let columnCount = 12

    /// Where `columns(ranking:)` holds the rowids of the rows it reads (for a fault's example row).
    static let rowids: StoredRow.RowIDs = [("search_names", 11), ("taxa", 0)]

    /// `search_names s JOIN taxa t` and, with the ranking tables, their heads and prominence.
    static func from(ranking: Bool) -> String {
        "search_names s JOIN taxa t ON t.id = s.taxon_id"
            + (ranking ? " LEFT JOIN name_heads h ON h.name_id = s.id LEFT JOIN taxon_prominence p ON p.taxon_id = s.taxon_id" : "")
    }

    /// Every row of `statement` (selecting `columns(ranking:)` first).
    static func fetchAll(_ statement: Statement, arguments: StatementArguments) throws -> [CandidateName] {
        try statement.storedRows(arguments, rowids: rowids, CandidateName.init)
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
    /// A row whose first columns are `columns(ranking:)`, read by position as the schema declares
    /// them (`StoredRow`; an extension, so the memberwise initializer stays).
    init(_ row: StoredRow) throws {
        self.init(
            taxonID: try row.taxonID(0, "search_names.taxon_id"), name: try row.text(1, "search_names.name"),
            folded: try row.text(2, "search_names.folded"), matchType: try row.text(3, "search_names.match_type"),
            lang: try row.textOrNull(4, "search_names.lang"), scientificName: try row.text(5, "taxa.scientific_name"),
            rank: try row.memberOrNull(Rank.self, 6, "taxa.rank"), status: try row.member(TaxonStatus.self, 7, "taxa.status"),
            head: try row.textOrNull(8, "name_heads.head"), parts: try row.textOrNull(9, "name_heads.parts"),
            prominence: Int(clamping: try row.integerOrNull(10, "taxon_prominence.prominence") ?? 0))
    }
}
