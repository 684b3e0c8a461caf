import GRDB
import STOLProtocol
import Testing

@testable import STOLEngine

/// `SchemaExtensions.fillSearchIndex` keeps each folded name once per taxon and language, whether
/// the taxon has a few names or thousands, and trims names only where there is whitespace to trim.
@Suite struct SearchIndexFillTests {
    @Test func eachFoldedNameOncePerTaxonAndLanguage() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: try Schema.specificationSQL())
            try db.execute(sql: SchemaExtensions.createSQL(.searchIndex))
            try db.execute(sql: "INSERT INTO taxa(id, scientific_name) VALUES (1, 'Canis lupus'), (2, ' Vulpes vulpes\t'), (3, 'Ursus arctos')")
            var names: [(Int64, String)] = [(1, "Wolf"), (1, "wolf "), (1, "Wölf"), (1, "Grey wolf"), (2, "Red fox"), (2, "  Red   fox"), (3, "canis lupus")]
            // A taxon with many names, each spelled twice (case, accents, spaces): past the short list.
            for i in 0..<200 { names += [(3, "Bear \(i)"), (3, " bÉar \(i) ")] }
            for (taxon, name) in names {
                try db.execute(sql: "INSERT INTO names(taxon_id, name, lang, name_type) VALUES (?, ?, 'en', 'common')", arguments: [taxon, name])
            }
            // The same name in another language is kept: search answers in the language asked.
            try db.execute(sql: "INSERT INTO names(taxon_id, name, lang, name_type) VALUES (1, 'Wolf', 'de', 'common'), (1, 'wolf', 'de', 'common')")
            try SchemaExtensions.fillSearchIndex(db, source: "main")
            let rows = try Row.fetchAll(db, sql: "SELECT taxon_id, name, folded, lang FROM search_names ORDER BY id")
            for taxon: Int64 in [1, 2, 3] {
                let folded = rows.filter { $0["taxon_id"] == taxon }.map { ($0["folded"] as String) + "/" + (($0["lang"] as String?) ?? "") }
                #expect(Set(folded).count == folded.count, "taxon \(taxon): \(folded)")
            }
            #expect(rows.filter { $0["taxon_id"] == Int64(3) }.count == 202, "its scientific name, \"canis lupus\" and 200 bears")
            #expect(rows.contains { $0["name"] == "Vulpes vulpes" }, "trimmed")
            #expect(rows.filter { $0["taxon_id"] == Int64(1) }.map { $0["name"] as String } == ["Canis lupus", "Wolf", "Grey wolf", "Wolf"])
        }
    }
}
