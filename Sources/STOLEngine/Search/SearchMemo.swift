import GRDB

/// What one search has read from the database, kept for the rest of that search: a query is
/// gathered once per reading and language scope (`SearchService.Gathering`), and those ask the
/// full-text index the same questions and read the same taxa's names. Lives for one search on
/// one connection, so nothing in it can go stale.
final class SearchMemo {
    /// Taxa a full-text expression matched, by cap and expression.
    private var taxa: [String: [Int64]] = [:]
    /// Names read by a statement, by its SQL and arguments.
    private var names: [String: [CandidateName]] = [:]
    /// Every name of a taxon (`SearchService.Gathering.judge`), filtered as the search is.
    private var namesOfTaxon: [Int64: [CandidateName]] = [:]

    /// The taxa `expression` matches in `fts_taxa`, at most `cap`, read once.
    func taxa(_ db: Database, matching expression: String, cap: Int) throws -> [Int64] {
        let key = "\(cap)|\(expression)"
        if let known = taxa[key] { return known }
        let found = try Int64.fetchAll(db.cachedStatement(sql: "SELECT rowid FROM fts_taxa WHERE fts_taxa MATCH ? LIMIT ?"), arguments: [expression, cap])
        taxa[key] = found
        return found
    }

    /// The names `sql` reads with `arguments` (selecting `CandidateName.columns` first), read once.
    func names(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> [CandidateName] {
        let key = sql + "\u{0}" + arguments.description
        if let known = names[key] { return known }
        let found = try CandidateName.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
        names[key] = found
        return found
    }

    /// Every name of `taxa` that `sql` reads (taxa given as the JSON array `:taxa`); only taxa
    /// not read before are asked for.
    func names(of taxa: [Int64], _ db: Database, _ sql: String, _ arguments: (String) -> StatementArguments) throws -> [CandidateName] {
        var out: [CandidateName] = []
        var fresh: [Int64] = []
        for id in taxa {
            if let known = namesOfTaxon[id] { out += known } else { fresh.append(id) }
        }
        guard !fresh.isEmpty else { return out }
        let rows = try CandidateName.fetchAll(db.cachedStatement(sql: sql), arguments: arguments(TaxonomyStore.jsonArray(fresh)))
        for id in fresh { namesOfTaxon[id] = [] }
        for row in rows { namesOfTaxon[row.taxonID]?.append(row) }
        return out.isEmpty ? rows : out + rows
    }
}
