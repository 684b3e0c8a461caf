import GRDB

/// How to tell a taxon from others with the same scientific name (NCBI has *Morus* the mulberry
/// and *Morus* the gannet). Present only where a name is shared.
public struct Disambiguation: Codable, Sendable, Equatable {
    /// The ancestor that sets this taxon apart; absent when the lineages do not differ above it
    /// (one namesake hangs below the other), and only the rank tells them apart.
    public var ancestorId: Int64?
    public var ancestorName: String?
    public var ancestorRank: Rank?
    /// The form to show: `Morus (genus in Aves)`.
    public var display: String

    public init(ancestorId: Int64? = nil, ancestorName: String? = nil, ancestorRank: Rank? = nil, display: String) {
        self.ancestorId = ancestorId
        self.ancestorName = ancestorName
        self.ancestorRank = ancestorRank
        self.display = display
    }
}

/// Finds the disambiguation of taxa whose scientific name is shared, at read time, so that
/// databases built before homonyms were handled get it too.
///
/// The ancestor shown is one where the lineages differ: of the ancestors that no namesake
/// shares (those below the deepest ancestor it has in common with any of them), the highest
/// that is a class or lower, since a class (Aves, Magnoliopsida) says most to a reader; when all
/// of them rank above class, or have no rank, the nearest. *Morus* the gannet and *Morus* the
/// mulberry share only Eukaryota: "Morus (genus in Aves)" and "Morus (genus in Magnoliopsida)".
///
/// Search and favourites call `disambiguate(_:in:)` on the taxa they return, inside their own
/// read, or `disambiguation(id:scientificName:rank:in:)` for one row; it costs one indexed
/// lookup per taxon, and the lineages only where a name is shared.
public enum Homonyms {
    /// Fills in `disambiguation` on each taxon whose scientific name another taxon shares.
    public static func disambiguate(_ taxa: inout [Taxon], in db: Database) throws {
        for i in taxa.indices {
            taxa[i].disambiguation = try disambiguation(id: taxa[i].id, scientificName: taxa[i].scientificName, rank: taxa[i].rank, in: db)
        }
    }

    /// The disambiguation of one taxon, or nil when no other taxon has its name.
    public static func disambiguation(id: Int64, scientificName: String, rank: Rank?, in db: Database) throws -> Disambiguation? {
        // The index on scientific_name is NOCASE: ask in its collation, then keep exact matches.
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT id, scientific_name FROM taxa WHERE scientific_name = ? COLLATE NOCASE LIMIT 64"),
            arguments: [scientificName])
        let namesakes: [Int64] = rows.compactMap { row in
            let other: Int64 = row[0]
            let name: String = row[1]
            return other != id && name == scientificName ? other : nil
        }
        guard !namesakes.isEmpty else { return nil }
        let own = try lineage(of: id, in: db)
        var deepestShared = 0
        for other in namesakes {
            let theirs = Set(try lineage(of: other, in: db).map(\.id))
            var shared = 0
            while shared < own.count, theirs.contains(own[shared].id) { shared += 1 }
            deepestShared = max(deepestShared, shared)
        }
        let differing = own[deepestShared...]
        let rankText = rank.map { $0.rawValue }
        guard let chosen = differing.first(where: { ($0.rank?.level ?? -1) >= Rank.class.level }) ?? differing.last else {
            return Disambiguation(display: "\(scientificName) (\(rankText ?? "unranked"))")
        }
        let display = rankText.map { "\(scientificName) (\($0) in \(chosen.name))" } ?? "\(scientificName) (in \(chosen.name))"
        return Disambiguation(ancestorId: chosen.id, ancestorName: chosen.name, ancestorRank: chosen.rank, display: display)
    }

    /// Ancestors of `id`, root first, parent last.
    static func lineage(of id: Int64, in db: Database) throws -> [(id: Int64, name: String, rank: Rank?)] {
        // Each step reads the parent through a subquery: written as a join, SQLite builds a Bloom
        // filter over the whole taxa table at every step (0.8 s per lineage on NCBI's 2.26 M taxa).
        let sql = """
            WITH RECURSIVE up(id, level) AS (
                SELECT parent_id, 1 FROM taxa WHERE id = ? AND parent_id IS NOT NULL
                UNION ALL
                SELECT (SELECT t.parent_id FROM taxa t WHERE t.id = up.id), up.level + 1 FROM up
                WHERE up.id IS NOT NULL AND up.level < 10000
            )
            SELECT t.id, t.scientific_name, t.rank FROM taxa t JOIN up ON up.id = t.id ORDER BY up.level DESC
            """
        return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: [id]).map { row in
            (row[0], row[1], (row[2] as String?).flatMap(Rank.init(rawValue:)))
        }
    }
}
