import GRDB
import STOLProtocol
import STOLSupport

/// The names of one database's best-known taxa (`Prominence`), read once and kept, so that
/// autocomplete finds them for a prefix of a letter or two, which starts too many names for the
/// folded-name index's first rows to reach them. An open database never changes, so nothing
/// goes stale; it lives as long as its `TaxonomyDatabase`.
final class ProminentNames: Sendable {
    /// Most taxa whose names are kept, best known first.
    static let taxa = 2_000

    private let kept = Locked<[Autocomplete.NameRow]?>(nil)

    /// The names, with their taxa's conservation status, read from `db` the first time.
    func names(in db: Database) throws -> [Autocomplete.NameRow] {
        if let names = kept.withLock({ $0 }) { return names }
        let names = try db.storedRows("""
            SELECT \(CandidateName.columns(ranking: true)), t.conservation
            FROM (SELECT taxon_id, prominence FROM taxon_prominence WHERE prominence > 0 ORDER BY prominence DESC, taxon_id LIMIT \(Self.taxa)) AS p
            JOIN search_names s ON s.taxon_id = p.taxon_id JOIN taxa t ON t.id = s.taxon_id LEFT JOIN name_heads h ON h.name_id = s.id
            """, rowids: CandidateName.rowids) { row in
            Autocomplete.NameRow(name: try CandidateName(row),
                                 conservation: try row.memberOrNull(ConservationStatus.self, Int32(CandidateName.columnCount), "taxa.conservation")?.rawValue)
        }
        kept.withLock { $0 = names }
        return names
    }
}
