import GRDB
import STOLProtocol

extension TaxonomyStore {
    /// The description of taxon `id` best fitting `lang`: in `lang` itself, then its primary subtag
    /// (`pt` for `pt-BR`), then a regional form of that (`pt-PT`), then English; nil when the
    /// database holds none (or no `descriptions` table). Values of another type than the schema's
    /// (a hostile file) are read as text.
    static func description(_ db: Database, _ id: Int64, lang: String, in database: TaxonomyDatabase) throws -> TaxonDescription? {
        guard database.contentExtensions.contains(.descriptions) else { return nil }
        let primary = primaryLanguage(lang)
        let regional = regionalTags(of: primary)
        let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT CAST(lang AS TEXT), CAST(text AS TEXT), CAST(source_title AS TEXT), CAST(source_url AS TEXT), CAST(license AS TEXT),
                CAST(source_name AS TEXT)
            FROM descriptions
            WHERE taxon_id = :id AND (lang = :lang OR lang = :primary OR lang = 'en' OR (lang >= :lower AND lang < :upper))
            ORDER BY (lang = :lang) * 8 + (lang = :primary) * 4 + (lang >= :lower AND lang < :upper) * 2 DESC, lang
            LIMIT 1
            """), arguments: ["id": id, "lang": lang, "primary": primary, "lower": regional.lower, "upper": regional.upper])
        guard let row, let text = row[1] as String?, !text.isEmpty else { return nil }
        return TaxonDescription(text: text, lang: row[0] ?? "und", sourceTitle: row[2], sourceUrl: row[3], license: row[4], sourceName: row[5])
    }

    /// The sources of taxon `id`'s merged names (`name_sources`), by the name's row id; empty when
    /// the database records none.
    static func nameSources(_ db: Database, _ id: Int64, in database: TaxonomyDatabase) throws -> [Int64: String] {
        guard database.contentExtensions.contains(.nameSources) else { return [:] }
        var out: [Int64: String] = [:]
        try db.cachedStatement(sql: """
            SELECT s.name_id, s.source, s.rowid FROM names n JOIN name_sources s ON s.name_id = n.id WHERE n.taxon_id = ?
            """).forEachStoredRow([id], rowids: [("name_sources", 2)]) { row in
            if let source = try row.textOrNull(1, "name_sources.source") { out[try row.integer(0, "name_sources.name_id")] = source }
        }
        return out
    }
}
