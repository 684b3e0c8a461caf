import Foundation
import GRDB
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

extension ImporterTests {
    /// The full-text tables built on the side (`DatabaseBuilder.FullTextBuild`) are, shadow table
    /// by shadow table, what one connection writes with the same rows; the side file is gone
    /// after a copy, after a failure and when the build stops early.
    @Suite struct FullTextSideBuild {
        /// The default dataset's taxa (common names in many languages, synonyms), by id.
        static func taxa() throws -> (taxa: [SourceTaxon], ids: [Int64], order: [Int]) {
            let source = RealDataImportTests.repositoryRoot.appendingPathComponent("dataset/default")
            let assembled = try TaxonomyAssembler(policy: .fail).assemble([try TaxaSourceParser().parse(directory: source)])
            let order = assembled.taxa.indices.sorted { assembled.ids[$0] < assembled.ids[$1] }
            return (assembled.taxa, assembled.ids, order)
        }

        /// The schema's full-text tables, and their definitions.
        static func schema(_ db: Database) throws -> [String] {
            try db.execute(sql: try Schema.sql())
            return try ["fts_taxa", "fts_words"].map { try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [$0])! }
        }

        /// Every row of every FTS5 shadow table, by table.
        static func shadowRows(_ db: Database) throws -> [String: [Row]] {
            var out: [String: [Row]] = [:]
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND (name LIKE 'fts\\_taxa\\_%' ESCAPE '\\' OR name LIKE 'fts\\_words\\_%' ESCAPE '\\')") {
                out[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) ORDER BY 1, 2")
            }
            return out
        }

        /// Many taxa with made-up words, enough for FTS5 to write several segments and merge them.
        static func manyTaxa() -> (taxa: [SourceTaxon], ids: [Int64], order: [Int]) {
            var random = SplitMix64(seed: 42)
            func word() -> String { String((0..<Int.random(in: 4...11, using: &random)).map { _ in "abcdefghijklmnopqrstuvwxyzäé".randomElement(using: &random)! }) }
            var taxa: [SourceTaxon] = []
            for i in 0..<20_000 {
                var taxon = SourceTaxon(key: "t\(i)", parentKey: nil, rank: .species, scientificName: word().capitalized + " " + word())
                if i % 3 == 0 { taxon.names.append(SourceName(word() + " " + word(), lang: "en", type: .common)) }
                if i % 7 == 0 { taxon.names.append(SourceName(word(), lang: "la", type: .synonym)) }
                taxa.append(taxon)
            }
            let ids = taxa.indices.map { Int64($0 * 7 % 20_000 + 1) }
            return (taxa, ids, taxa.indices.sorted { ids[$0] < ids[$1] })
        }

        @Test(arguments: [false, true]) func sameShadowTablesAsOneConnection(many: Bool) throws {
            let (taxa, ids, order) = many ? Self.manyTaxa() : try Self.taxa()
            #expect(taxa.count > 1_000 && taxa.contains { !$0.names.isEmpty })
            let dir = try TemporaryDirectory()
            defer { dir.remove() }

            let side = try DatabaseQueue(path: dir.url.appendingPathComponent("side.sqlite").path)
            let definitions = try side.write { db in try Self.schema(db) }
            let build = DatabaseBuilder.FullTextBuild(beside: dir.url.appendingPathComponent("side.sqlite"), definitions: definitions, taxa: taxa, ids: ids, order: order)
            try side.writeWithoutTransaction { db in try build.copy(into: db) }
            #expect(!FileManager.default.fileExists(atPath: build.url.path))

            let direct = try DatabaseQueue()
            try direct.write { db in
                _ = try Self.schema(db)
                for i in order {
                    let names = DatabaseBuilder.normalisedNames(taxa[i].names)
                    let (commons, synonyms) = DatabaseBuilder.joinedNames(names)
                    try db.execute(sql: "INSERT INTO fts_taxa(rowid, taxon_id, scientific_name, common_names, synonyms) VALUES (?,?,?,?,?)",
                                   arguments: [ids[i], ids[i], taxa[i].scientificName, commons, synonyms])
                }
                try db.execute(sql: "INSERT INTO fts_taxa(fts_taxa) VALUES ('optimize')")
                try SchemaExtensions.fillWordVocabulary(db, source: "main")
            }
            let copied = try side.read { db in try Self.shadowRows(db) }
            let expected = try direct.read { db in try Self.shadowRows(db) }
            #expect(copied.keys.sorted() == expected.keys.sorted())
            #expect(copied.keys.contains("fts_taxa_data") && copied.keys.contains("fts_words_content"))
            for (table, rows) in expected {
                #expect(rows.count > 0, "\(table)")
                #expect(copied[table] == rows, "\(table)")
            }
            // FTS5 finds its own index sound, and a common name is found.
            try side.write { db in
                try db.execute(sql: "INSERT INTO fts_taxa(fts_taxa, rank) VALUES ('integrity-check', 0)")
                try db.execute(sql: "INSERT INTO fts_words(fts_words, rank) VALUES ('integrity-check', 1)")
                if !many { #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM fts_taxa WHERE fts_taxa MATCH 'common_names:fox'")! > 0) }
            }
        }

        @Test func sideFileGoneAfterFailureOrStop() throws {
            let (taxa, ids, order) = try Self.taxa()
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let output = dir.url.appendingPathComponent("out.sqlite")
            let queue = try DatabaseQueue(path: output.path)
            let definitions = try queue.write { db in try Self.schema(db) }

            // The side build fails: the copy says why, and leaves nothing behind.
            let failing = DatabaseBuilder.FullTextBuild(beside: output, definitions: ["CREATE VIRTUAL TABLE fts_taxa USING no_such_module()"], taxa: taxa, ids: ids, order: order)
            #expect(throws: DatabaseError.self) { try queue.writeWithoutTransaction { db in try failing.copy(into: db) } }
            #expect(!FileManager.default.fileExists(atPath: failing.url.path))

            // The build stops before the copy (the rows failed): dropping the side build stops it.
            var stopped: DatabaseBuilder.FullTextBuild? = DatabaseBuilder.FullTextBuild(beside: output, definitions: definitions, taxa: taxa, ids: ids, order: order)
            let url = stopped!.url
            stopped = nil
            #expect(!FileManager.default.fileExists(atPath: url.path))
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["out.sqlite"])
        }
    }
}
