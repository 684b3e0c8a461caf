import Foundation
import GRDB
import STOLProtocol
import Testing

@testable import STOLEngine

/// The preferred common name of every taxon of the embedded database, in several languages, is
/// the one the rule picks: the requested language, then its primary subtag, then English; a
/// preferred name before others; the lowest id among equals. The reference here states the rule
/// as a plain `ORDER BY`; the engine computes it differently (a `max()` over a score).
@Suite struct PreferredCommonNameTests {
    static let rule = """
        SELECT n.lang, n.name FROM names n
        WHERE n.taxon_id = :id AND n.name_type IN ('common', 'vernacular') AND n.lang IN (:lang, :primary, 'en')
        ORDER BY n.lang = :lang DESC, n.lang = :primary DESC, n.is_preferred DESC, n.id LIMIT 1
        """

    @Test(arguments: ["en", "de", "es", "fr", "pt-BR", "zh-Hans"])
    func everyTaxonFollowsTheRule(lang: String) async throws {
        let url = try Engine.embeddedDatabaseURL()
        let database = try TaxonomyDatabase(url: url, source: .bundled)
        let store = TaxonomyStore(database: database)
        let reference = try DatabaseQueue(path: url.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        let primary = String(lang.split(separator: "-")[0])
        let expected: [(Int64, String?, String?)] = try await reference.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM taxa ORDER BY id").map { id in
                let row = try Row.fetchOne(db, sql: Self.rule, arguments: ["id": id, "lang": lang, "primary": primary])
                return (id, row?["lang"], row?["name"])
            }
        }
        #expect(expected.count > 3000)
        var wrong: [String] = []
        for (id, expectedLang, expectedName) in expected {
            let taxon = try await store.taxon(id, lang: lang)
            if taxon.preferredCommonName != expectedName || taxon.preferredCommonNameLang != expectedLang {
                wrong.append("\(id): \(String(describing: taxon.preferredCommonName)) (\(String(describing: taxon.preferredCommonNameLang))), expected \(String(describing: expectedName))")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }
}
