import GRDB
import STOLJSON
import STOLProtocol

extension SharedName {
    /// The shared name of the taxon `id` (`scientificName`, `rank`), shown as `commonName` in
    /// `lang`: another taxon in its lineage, above or below it, that has the same common name
    /// in that language (letter case aside). Nil when none has: one indexed lookup of the name,
    /// and lineages only for the taxa that bear it.
    static func find(id: Int64, scientificName: String, rank: Rank?, commonName: String?, lang: String?, in db: Database) throws -> SharedName? {
        guard let commonName, let lang else { return nil }
        let bearers = try db.storedRows("""
            SELECT DISTINCT taxon_id FROM names
            WHERE name = ? COLLATE NOCASE AND lang = ? AND name_type IN ('common', 'vernacular') AND taxon_id <> ?
            """, [commonName, lang, id]) { try $0.taxonID(0, "names.taxon_id") }
        guard !bearers.isEmpty else { return nil }
        let own = try Homonyms.lineage(of: id, in: db)
        let this = Other(id: id, scientificName: scientificName, rank: rank)
        // Nearest group above first.
        if let above = own.reversed().first(where: { bearers.contains($0.id) }) {
            let group = Other(id: above.id, scientificName: above.name, rank: above.rank)
            return SharedName(name: commonName, role: .member, namedFor: nil, group: group,
                              display: "\(commonName) (\(label(this)))")
        }
        var members: [Other] = []
        for bearer in bearers.prefix(64) {
            let lineage = try Homonyms.lineage(of: bearer, in: db)
            guard lineage.contains(where: { $0.id == id }) else { continue }
            guard let member = try db.cachedStatement(sql: "SELECT scientific_name, rank, rowid FROM taxa WHERE id = ?").firstStoredRow([bearer], rowids: [("taxa", 2)], { row in
                Other(id: bearer, scientificName: try row.text(0, "taxa.scientific_name"), rank: try row.memberOrNull(Rank.self, 1, "taxa.rank"))
            }) else { continue }
            members.append(member)
        }
        // The lowest-ranked member (a species before a genus), then the lowest id.
        guard let member = members.min(by: { ($0.rank?.level ?? -1, -$0.id) > ($1.rank?.level ?? -1, -$1.id) }) else { return nil }
        return SharedName(name: commonName, role: .group, namedFor: member, group: nil,
                          display: "\(commonName) (\(label(this)), named for \(member.scientificName))")
    }

    /// `family Phascolarctidae`, or the name alone when unranked.
    private static func label(_ taxon: Other) -> String {
        taxon.rank.map { "\($0.rawValue) \(taxon.scientificName)" } ?? taxon.scientificName
    }
}

extension SharedName {
    /// `results` with `sharedName` set on each whose shown common name a group or member shares.
    static func annotating(_ results: [SearchResult], in database: TaxonomyDatabase) async throws -> [SearchResult] {
        guard results.contains(where: { $0.preferredCommonName != nil }) else { return results }
        return try await database.read { db in
            var annotated = results
            for i in annotated.indices {
                let r = annotated[i]
                annotated[i].sharedName = try find(
                    id: r.id, scientificName: r.scientificName, rank: r.rank, commonName: r.preferredCommonName, lang: r.preferredCommonNameLang, in: db)
            }
            return annotated
        }
    }
}
