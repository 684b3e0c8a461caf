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
        var out: [CandidateName] = []
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        while let row = try rows.next() { out.append(CandidateName(row)) }
        return out
    }
}

extension CandidateName {
    /// A row whose first columns are `SearchService.nameColumns`, read by position (an extension,
    /// so the memberwise initializer stays).
    init(_ row: Row) {
        self.init(
            taxonID: row[0], name: row[1], folded: row[2], matchType: row[3], lang: row[4],
            scientificName: row[5], rank: row[6], status: row[7])
    }
}
