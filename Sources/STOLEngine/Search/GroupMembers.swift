import GRDB

/// When the best hit is a group (a taxon of a rank above species with members, "Bears" for
/// `bears`), its best-known members among the hits follow it: up to `count` of its descendants
/// that matched as well as a whole word does (`SearchScore` groups 0–3) and are not demoted, by
/// prominence (`Prominence`), then in their order. The rest keep their order.
enum GroupMembers {
    /// Most members moved up.
    static let count = 5

    static func follow(_ hits: inout [SearchService.Hit], in db: Database) throws {
        func isStrong(_ hit: SearchService.Hit) -> Bool {
            !hit.weak && SearchScore.group(tier: hit.tier, weak: false, editDistance: hit.editDistance) <= 3
        }
        guard let first = hits.first, first.rank != .species, isStrong(first), hits.count > 1 else { return }
        let strong = hits.indices.dropFirst().filter { isStrong(hits[$0]) }
        guard !strong.isEmpty, let range = try SearchFilters.subtreeRange(db, of: first.taxonID) else { return }
        let candidates = strong.map { hits[$0].taxonID }
        let inside = Set(try db.storedRows("""
            SELECT taxon_id, rowid FROM first_occurrence WHERE taxon_id IN (SELECT value FROM json_each(?)) AND seq BETWEEN ? AND ?
            """, [TaxonomyStore.jsonArray(candidates), range.lowerBound, range.upperBound], rowids: [("first_occurrence", 1)]) {
            try $0.taxonID(0, "first_occurrence.taxon_id")
        })
        let members = strong.filter { inside.contains(hits[$0].taxonID) }
            .sorted { a, b in hits[a].prominence != hits[b].prominence ? hits[a].prominence > hits[b].prominence : a < b }
            .prefix(count)
        guard !members.isEmpty else { return }
        let moved = members.map { hits[$0] }
        let movedSet = Set(members)
        hits = [first] + moved + hits.indices.dropFirst().filter { !movedSet.contains($0) }.map { hits[$0] }
    }
}
