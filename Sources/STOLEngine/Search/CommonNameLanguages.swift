import GRDB
import STOLSupport

/// Which languages one database has common names in, asked once per language and kept: where a
/// database has none in the user's language (Open Tree has no common names at all), no taxon is
/// known in it (`SearchService.Hit.known`) and search looks nothing up.
final class CommonNameLanguages: Sendable {
    /// Most languages remembered: the language comes from the request, so the table is bounded.
    static let capacity = 256

    private let answers = Locked<[String: Bool]>([:])

    /// Whether `db` has a common or vernacular name in `primary` (a primary language subtag) or one
    /// of its regional tags. Two seeks of the specification's `idx_names_lang`; a database without
    /// that index is taken to have them (the per-taxon lookups then decide, as before).
    func any(in primary: String, db: Database) -> Bool {
        if let known = answers.withLock({ $0[primary] }) { return known }
        let regional = TaxonomyStore.regionalTags(of: primary)
        let common = "name_type IN ('common', 'vernacular')"
        let found = (try? Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM names INDEXED BY idx_names_lang WHERE lang = ? AND \(common))
                OR EXISTS (SELECT 1 FROM names INDEXED BY idx_names_lang WHERE lang >= ? AND lang < ? AND \(common))
            """, arguments: [primary, regional.lower, regional.upper])) ?? nil
        let answer = found ?? true
        answers.withLock { if $0.count < Self.capacity { $0[primary] = answer } }
        return answer
    }
}
