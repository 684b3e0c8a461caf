import GRDB
import Testing
@testable import STOLEngine

/// How well known a taxon is, from the database's own tables (`Prominence`).
@Suite struct ProminenceTests {
    func prominence(_ setup: String, bundled: Set<String>? = nil) throws -> [String: Int] {
        let queue = try DatabaseQueue()
        return try queue.write { db in
            try db.execute(sql: try Schema.specificationSQL())
            try db.execute(sql: setup)
            try db.execute(sql: SchemaExtensions.createSQL(.searchIndex) + SchemaExtensions.createSQL(.searchRanking))
            try SchemaExtensions.fillSearchNames(db, source: "main")
            if let bundled {
                try NameHeads.fill(db, namesSchema: "main")
                try Prominence.fill(db, source: "main", bundled: bundled)
            } else {
                try SchemaExtensions.fillSearchRanking(db, source: "main")
            }
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
        // Three languages, four names (0.35·3/5 + 0.15·log₂(5)/4 = 0.297), domestic: 0.7 + 0.3·0.297.
        #expect(cat == 789)
        // One name in one language and a description of 800 characters: 0.07 + 0.0375 + 0.3·0.86.
        #expect(sand == 366)
        #expect(values["Felis obscura"] == 0 && values["Obscura obscura"] == 0)
        // A group of well-known members is known, below its best-known member:
        // 0.9 · 0.789 · (0.75 + 0.25 · log₂(1 + 0.789 + 0.366) / 5).
        #expect(values["Felidae"] == 572 && values["Obscuridae"] == 0)
        for demoted in ["Viruses", "Feline leukemia agent", "Felis x hybrida", "Felis sp. 7"] {
            #expect(values[demoted] == Prominence.demoted, "\(demoted)")
        }
    }

    /// A description that says the organism is domesticated marks it so; named forms below a
    /// species (the dog below the wolf) make it better known.
    @Test func descriptionsSayDomesticatedAndFormsCount() throws {
        for text in ["The llama is a domesticated South American camelid.", "Barley was one of the first domesticated grains.",
                     "The goat has been domesticated for 10,000 years.", "It was first domesticated in China."] {
            #expect(Prominence.saysDomesticated(text), "\(text)")
        }
        for text in ["The wolf has never been domesticated.", "It is not domesticated.", "Its domesticated relative is the dog.",
                     "A wild animal, unlike domesticated goats.",
                     "Hares are fast. They live in fields. Their young are born furred. The Belgian hare is a domesticated rabbit."] {
            #expect(!Prominence.saysDomesticated(text), "\(text)")
        }
        let values = try prominence("""
            INSERT INTO taxa(id, parent_id, rank, scientific_name) VALUES
                (1, NULL, 'species', 'Canis lupus'), (2, 1, 'subspecies', 'Canis lupus familiaris'), (3, 1, 'subspecies', 'Canis lupus dingo'),
                (4, NULL, 'species', 'Canis latrans'), (5, NULL, 'species', 'Lama glama'), (6, NULL, 'species', 'Felis catus');
            INSERT INTO names(taxon_id, name, lang, name_type) VALUES
                (1, 'Gray wolf', 'en', 'common'), (2, 'Dog', 'en', 'common'), (3, 'Dingo', 'en', 'common'), (4, 'Coyote', 'en', 'common'),
                (5, 'Llama', 'en', 'common'), (6, 'Domestic cat', 'en', 'common');
            CREATE TABLE descriptions(taxon_id INTEGER NOT NULL, lang TEXT NOT NULL, text TEXT NOT NULL, source_title TEXT, source_url TEXT, license TEXT, PRIMARY KEY(taxon_id, lang));
            INSERT INTO descriptions(taxon_id, lang, text) VALUES (5, 'en', 'The llama is a domesticated South American camelid.');
            """)
        let wolf = try #require(values["Canis lupus"]), coyote = try #require(values["Canis latrans"]), llama = try #require(values["Lama glama"])
        // 0.07 + 0.0375 + 0.1 · 2/3 for the two named forms, against 0.1075 for the coyote.
        #expect(wolf == 174 && (107...108).contains(coyote))
        // A short description (0.3 + 0.7 · 52/1000) that says domesticated: 0.5 + 0.5 · own; a
        // name that says so, without a description: 0.7 + 0.3 · own, before it.
        let cat = try #require(values["Felis catus"])
        #expect(llama == 604 && cat == 732, "\(llama) \(cat)")
    }

    /// A species the bundled encyclopedia describes is better known than its peers with as many
    /// names; where half the organisms are bundled, the input tells none apart and is left out.
    @Test func bundledSpecies() throws {
        let setup = """
            INSERT INTO taxa(id, parent_id, rank, scientific_name) VALUES
                (1, NULL, 'family', 'Delphinidae'), (2, 1, 'species', 'Tursiops truncatus'), (3, 1, 'species', 'Sotalia fluviatilis'),
                (4, 1, 'species', 'Stenella longirostris'), (5, 1, 'species', 'Lagenorhynchus obscurus');
            INSERT INTO names(taxon_id, name, lang, name_type) VALUES
                (2, 'bottlenose dolphin', 'en', 'common'), (3, 'gray dolphin', 'en', 'common'), (4, 'spinner dolphin', 'en', 'common'),
                (5, 'dusky dolphin', 'en', 'common');
            """
        let few = try prominence(setup, bundled: ["Tursiops truncatus", "Panthera leo"])
        let bottlenose = try #require(few["Tursiops truncatus"]), gray = try #require(few["Sotalia fluviatilis"])
        // own 0.1075 for one English name; bundled: 0.5 + 0.5 · 0.1075.
        #expect((107...108).contains(gray) && bottlenose == 554, "\(few)")
        #expect(try #require(few["Delphinidae"]) > gray, "the family from its best-known member")
        let half = try prominence(setup, bundled: ["Tursiops truncatus", "Sotalia fluviatilis"])
        #expect(half["Tursiops truncatus"] == half["Sotalia fluviatilis"], "\(half)")
        #expect(!BundledSpecies.names.isEmpty && BundledSpecies.names.contains("Panthera leo"), "read from the engine's own database")
    }

    @Test func demotedNames() {
        for name in ["Polar bear mastadenovirus A", "Mycobacterium phage Puppy", "Herpesviridae", "Bos indicus x Bos taurus", "Platanus × hispanica",
                     "uncultured bacterium", "Felis sp.", "Potato spindle tuber viroid", "catfish", "salmonid fish",
                     "Coconut lethal yellowing phytoplasma", "Candidatus Phytoplasma palmae"] {
            #expect(Prominence.isDemoted(name), "\(name)")
        }
        for name in ["Ursus maritimus", "Phagocata gracilis", "Virgilia oroboides", "Felis catus", "Spinus spinus", "Cocos nucifera"] {
            #expect(!Prominence.isDemoted(name), "\(name)")
        }
    }
}
