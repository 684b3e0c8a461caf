import Foundation
import GRDB
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

/// Imports the real MDD and AviList files from `../shared/data` and builds one database from both.
/// Not nested under `ImporterTests`: it takes a while, so it runs on its own (`--filter realData`).
@Suite struct RealDataImportTests {
    static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/", !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url
    }()

    static func sharedData(_ path: String) -> URL {
        repositoryRoot.appendingPathComponent("../shared/data").appendingPathComponent(path).standardizedFileURL
    }

    @Test func realDataMammalsAndBirds() throws {
        let mddFile = Self.sharedData("mdd/MDD_v2.1_6801species.csv.gz")
        let aviListFile = Self.sharedData("avilist/AviList-v2025-extended.csv.gz")
        try #require(FileManager.default.fileExists(atPath: mddFile.path), "missing \(mddFile.path)")
        try #require(FileManager.default.fileExists(atPath: aviListFile.path), "missing \(aviListFile.path)")

        let mammals = try MDDImporter().parse(file: mddFile)
        let birds = try AviListImporter().parse(file: aviListFile)
        #expect(mammals.skipped.isEmpty, "\(mammals.skipped.prefix(5))")
        #expect(birds.result.skipped.isEmpty, "\(birds.result.skipped.prefix(5))")
        #expect(birds.subspeciesSkipped == 19_879)

        let assembled = try TaxonomyAssembler().assemble([mammals, birds.result])
        #expect(assembled.issues.isEmpty, "\(assembled.issues.prefix(5))")

        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let output = dir.url.appendingPathComponent("animals.sqlite")
        let metadata = DatabaseBuilder.Metadata(
            name: "mammals-and-birds", version: "test", license: "CC BY 4.0",
            attribution: (mammals.credits + birds.result.credits).joined(separator: "\n"), buildDate: "2025-01-01",
            sourceFiles: mammals.sourceFiles + birds.result.sourceFiles)
        let report = try DatabaseBuilder(topN: 3).build(assembled, metadata: metadata, to: output)
        #expect(report.species == assembled.taxa.filter { $0.rank == .species }.count)

        let queue = try DatabaseQueue(path: output.path)
        try queue.read { db in
            for name in ["Eukaryota", "Animalia", "Chordata"] {
                #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM taxa WHERE scientific_name = ?", arguments: [name]) == 1, "\(name)")
            }
            let lineage = try String.fetchAll(
                db,
                sql: """
                    WITH RECURSIVE up(id, parent_id, name, depth) AS (
                        SELECT id, parent_id, scientific_name, 0 FROM taxa WHERE scientific_name = 'Panthera leo' AND rank = 'species'
                        UNION ALL
                        SELECT t.id, t.parent_id, t.scientific_name, up.depth + 1 FROM taxa t JOIN up ON t.id = up.parent_id
                    )
                    SELECT name FROM up ORDER BY depth
                    """)
            #expect(lineage == ["Panthera leo", "Panthera", "Felidae", "Carnivora", "Mammalia", "Chordata", "Animalia", "Eukaryota"])
            let sparrow = try String.fetchOne(
                db,
                sql: """
                    SELECT n.name FROM names n JOIN taxa t ON t.id = n.taxon_id
                    WHERE t.scientific_name = 'Passer domesticus' AND n.lang = 'en' AND n.name_type = 'common' AND n.is_preferred = 1
                    """)
            #expect(sparrow == "House Sparrow")

            func species(in className: String) throws -> Int {
                try Int.fetchOne(
                    db,
                    sql: """
                        WITH RECURSIVE down(id) AS (
                            SELECT id FROM taxa WHERE scientific_name = ? AND rank = 'class'
                            UNION ALL SELECT t.id FROM taxa t JOIN down ON t.parent_id = down.id
                        )
                        SELECT count(*) FROM taxa WHERE rank = 'species' AND id IN (SELECT id FROM down)
                        """, arguments: [className]) ?? 0
            }
            let mammalSpecies = try species(in: "Mammalia")
            let birdSpecies = try species(in: "Aves")
            #expect(mammalSpecies >= 6_700 && mammalSpecies <= 6_801, "\(mammalSpecies) mammal species")
            #expect(birdSpecies >= 11_000 && birdSpecies <= 11_131, "\(birdSpecies) bird species")
            print("realData: \(mammalSpecies) mammal species, \(birdSpecies) bird species, \(report.taxa) taxa, \(report.names) names, \(report.bytes) bytes")
        }
    }

    /// The 2.4-million-node Open Tree table: slow in a debug build, so opt-in with STOL_OPENTREE=1.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["STOL_OPENTREE"] == "1"))
    func realDataOpenTree() throws {
        let file = Self.sharedData("opentree/nodes.tsv.gz")
        let clock = ContinuousClock()
        var result = ImportResult()
        let importTime = try clock.measure { result = try ParentChildTableImporter(credits: ["Open Tree of Life (2015)"]).parse(file: file) }
        #expect(result.taxa.count == 2_388_400)
        #expect(result.skipped.isEmpty)
        #expect(result.taxa.filter { $0.scientificName.hasPrefix("Unnamed clade ") }.count == 25_915)
        let species = result.taxa.lazy.filter { $0.rank == .species }.count
        var assembled: TaxonomyAssembler.Assembled? = nil
        let assembleTime = try clock.measure { assembled = try TaxonomyAssembler().assemble([result]) }
        #expect(assembled?.issues.isEmpty == true)
        #expect(assembled?.taxa.count == 2_388_400)
        print("openTree: import \(importTime), assemble \(assembleTime), \(species) binomials ranked species")
    }
}
