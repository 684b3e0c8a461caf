import GRDB
import Testing
@testable import STOLEngine
import STOLProtocol

/// Which languages a database has common names in: found through `idx_names_lang`, regional tags
/// included, and taken as present when the index is missing.
@Suite struct CommonNameLanguagesTests {
    @Test func languagesOfTheEmbeddedDatabase() async throws {
        let database = try TaxonomyDatabase(url: try Engine.embeddedDatabaseURL(), source: .bundled)
        let languages = CommonNameLanguages()
        try await database.read { db in
            #expect(languages.any(in: "en", db: db))
            #expect(languages.any(in: "de", db: db))
            #expect(!languages.any(in: "xx", db: db), "no common names in an unknown language")
        }
    }

    @Test func regionalTagsAndAMissingIndex() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: try Schema.specificationSQL())
            try db.execute(sql: "INSERT INTO taxa(id, scientific_name) VALUES (1, 'Puma concolor')")
            try db.execute(sql: """
                INSERT INTO names(taxon_id, name, lang, name_type) VALUES
                    (1, 'Onça-parda', 'pt-BR', 'common'), (1, 'Felis concolor', 'la', 'synonym'), (1, 'Puma', 'en', 'synonym')
                """)
            let languages = CommonNameLanguages()
            #expect(languages.any(in: "pt", db: db), "a regional tag counts for its language")
            #expect(!languages.any(in: "en", db: db), "a synonym is not a common name")
            #expect(!languages.any(in: "p", db: db))
            try db.execute(sql: "DROP INDEX idx_names_lang")
            #expect(CommonNameLanguages().any(in: "en", db: db), "without the index: looked up per taxon, as before")
        }
    }
}
