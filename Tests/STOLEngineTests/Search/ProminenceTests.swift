import GRDB
import Testing
@testable import STOLEngine

/// How well known a taxon is, from the database's own tables (`Prominence`).
@Suite struct ProminenceTests {
    func prominence(_ setup: String) throws -> [String: Int] {
        let queue = try DatabaseQueue()
        return try queue.write { db in
            try db.execute(sql: try Schema.specificationSQL())
            try db.execute(sql: setup)
            try db.execute(sql: SchemaExtensions.createSQL(.searchIndex) + SchemaExtensions.createSQL(.searchRanking))
            try SchemaExtensions.fillSearchNames(db, source: "main")
            try SchemaExtensions.fillSearchRanking(db, source: "main")
            var out: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT t.scientific_name, coalesce(p.prominence, 0) FROM taxa t LEFT JOIN taxon_prominence p ON p.taxon_id = t.id") {
                out[row[0]] = row[1]
            }
            return out
        }
    }

    @Test func namesDescriptionsDomesticationAndMembers() throws {
        let values = try prominence("""
            INSERT INTO taxa(id, parent_id, rank, scientific_name) VALUES
                (1, NULL, 'family', 'Felidae'), (2, 1, 'species', 'Felis catus'), (3, 1, 'species', 'Felis margarita'),
                (4, 1, 'species', 'Felis obscura'), (5, NULL, 'family', 'Obscuridae'), (6, 5, 'species', 'Obscura obscura'),
                (7, NULL, 'domain', 'Viruses'), (8, 7, 'species', 'Feline leukemia agent'), (9, NULL, 'species', 'Felis x hybrida'),
                (10, NULL, 'species', 'Felis sp. 7');
            INSERT INTO names(taxon_id, name, lang, name_type) VALUES
                (2, 'Cat', 'en', 'common'), (2, 'Katze', 'de', 'common'), (2, 'Chat', 'fr', 'common'), (2, 'Domestic cat', 'en', 'common'),
                (3, 'Sand cat', 'en', 'common');
            INSERT INTO traits(taxon_id, trait_key, trait_value) VALUES (2, 'domestic', 'yes');
            CREATE TABLE descriptions(taxon_id INTEGER NOT NULL, lang TEXT NOT NULL, text TEXT NOT NULL, source_title TEXT, source_url TEXT, license TEXT, PRIMARY KEY(taxon_id, lang));
            INSERT INTO descriptions(taxon_id, lang, text) VALUES (3, 'en', '\(String(repeating: "x", count: 800))');
            """)
        let cat = try #require(values["Felis catus"]), sand = try #require(values["Felis margarita"])
        // Three languages, four names, domestic: 0.35·3/5 + 0.15·log₂(5)/4 + 0.2 = 0.497.
        #expect(cat == 497)
        // One name in one language and a description of 800 characters: 0.07 + 0.0375 + 0.3·0.86.
        #expect(sand == 366)
        #expect(values["Felis obscura"] == 0 && values["Obscura obscura"] == 0)
        #expect(values["Felidae"] == 179 && values["Obscuridae"] == 0, "a group of well-known members is known: log₂(1 + 0.8625) / 5")
        for demoted in ["Viruses", "Feline leukemia agent", "Felis x hybrida", "Felis sp. 7"] {
            #expect(values[demoted] == Prominence.demoted, "\(demoted)")
        }
    }

    @Test func demotedNames() {
        for name in ["Polar bear mastadenovirus A", "Mycobacterium phage Puppy", "Herpesviridae", "Bos indicus x Bos taurus", "Platanus × hispanica",
                     "uncultured bacterium", "Felis sp.", "Potato spindle tuber viroid"] {
            #expect(Prominence.isDemoted(name), "\(name)")
        }
        for name in ["Ursus maritimus", "Phagocata gracilis", "Virgilia oroboides", "Felis catus", "Spinus spinus"] {
            #expect(!Prominence.isDemoted(name), "\(name)")
        }
    }
}
