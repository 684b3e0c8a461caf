import GRDB
import STOLProtocol

extension TaxonomyDatabase {
    /// The languages of the database's common names, most names first (then by tag). Read once
    /// per opened database: the file never changes.
    public func languages() async throws -> [DatabaseLanguage] {
        if let cached = languagesCache.withLock({ $0 }) { return cached }
        let found = try await read { db in
            try db.storedRows("""
                SELECT lang, count(*), count(DISTINCT taxon_id) FROM names
                WHERE name_type IN ('common', 'vernacular') AND typeof(lang) = 'text'
                GROUP BY lang ORDER BY count(*) DESC, lang
                """) { row in
                DatabaseLanguage(lang: try row.text(0, "names.lang"), names: Int(try row.integer(1, "count")), taxa: Int(try row.integer(2, "count")))
            }
        }
        languagesCache.withLock { $0 = found }
        return found
    }
}
