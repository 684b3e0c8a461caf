import GRDB

/// One searchable name read for judging, with the facts of its taxon that order hits
/// (`SearchService.nameColumns`, read by position from a cursor rather than copied as rows).
struct CandidateName: Sendable {
    var taxonID: Int64
    var name: String
    var folded: String
    var matchType: String
    var lang: String?
    var scientificName: String
    var rank: String?
    var status: String

    /// Every row of `statement` (selecting `SearchService.nameColumns`).
    static func fetchAll(_ statement: Statement, arguments: StatementArguments) throws -> [CandidateName] {
        try statement.storedRows(arguments, rowids: rowids, CandidateName.init)
    }

    /// Where `SearchService.nameColumns` holds the rowids of the rows it reads.
    static let rowids: StoredRow.RowIDs = [("search_names", 8), ("taxa", 0)]
}

extension CandidateName {
    /// A row whose first columns are `SearchService.nameColumns`, read by position (an extension,
    /// so the memberwise initializer stays).
    init(_ row: StoredRow) throws {
        self.init(
            taxonID: try row.taxonID(0, "search_names.taxon_id"), name: try row.text(1, "search_names.name"),
            folded: try row.text(2, "search_names.folded"), matchType: try row.text(3, "search_names.match_type"),
            lang: try row.textOrNull(4, "search_names.lang"), scientificName: try row.text(5, "taxa.scientific_name"),
            rank: try row.memberOrNull(Rank.self, 6, "taxa.rank")?.rawValue, status: try row.member(TaxonStatus.self, 7, "taxa.status").rawValue)
    }
}
