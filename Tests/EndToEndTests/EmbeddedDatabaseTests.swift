import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLTestSupport
import Testing

/// The database that ships inside the engine: what it covers, that the engine serves it with no
/// arguments, and that it is exactly what its sources build.
@Suite(.serialized) struct EmbeddedDatabaseTests {
    static let shipped = EngineBinary.repositoryRoot.appendingPathComponent("Sources/STOLEngine/Resources/default.sqlite")

    /// Runs one query on `file` (the shipped database by default) with the sqlite3 CLI.
    static func query(_ sql: String, _ file: URL = shipped) throws -> [String] {
        try SQLiteCLI.run(file, sql, readOnly: true)
    }

    static func count(_ sql: String) throws -> Int { Int(try query(sql).first ?? "") ?? -1 }

    @Test func coversEveryDomainKingdomAndRank() throws {
        #expect(try Self.count("SELECT count(*) FROM taxa WHERE rank = 'species'") >= 1000)
        #expect(Set(try Self.query("SELECT scientific_name FROM taxa WHERE rank = 'domain'")) == ["Archaea", "Bacteria", "Eukaryota"])
        let kingdoms = Set(try Self.query("SELECT scientific_name FROM taxa WHERE rank = 'kingdom'"))
        #expect(kingdoms.isSuperset(of: ["Animalia", "Plantae", "Fungi", "Chromista", "Protozoa"]))
        #expect(try Self.count("SELECT count(*) FROM taxa WHERE parent_id IN (SELECT id FROM taxa WHERE scientific_name = 'Bacteria' AND rank = 'domain')") >= 2)
        #expect(Set(try Self.query("SELECT DISTINCT rank FROM taxa")) == Set(["domain", "kingdom", "phylum", "class", "order", "family", "genus", "species"]))
        // Every major animal class has species.
        for animalClass in ["Mammalia", "Aves", "Reptilia", "Amphibia", "Actinopterygii", "Chondrichthyes", "Insecta", "Arachnida"] {
            let species = try Self.count("""
                WITH RECURSIVE sub(id) AS (SELECT id FROM taxa WHERE scientific_name = '\(animalClass)' AND rank = 'class'
                UNION ALL SELECT t.id FROM taxa t JOIN sub ON t.parent_id = sub.id)
                SELECT count(*) FROM taxa WHERE rank = 'species' AND id IN sub
                """)
            #expect(species >= 10, "\(animalClass)")
        }
        // Every species sits under all seven higher ranks.
        #expect(try Self.count("""
            SELECT count(*) FROM taxa s JOIN taxa g ON g.id = s.parent_id AND g.rank = 'genus'
            JOIN taxa f ON f.id = g.parent_id AND f.rank = 'family' JOIN taxa o ON o.id = f.parent_id AND o.rank = 'order'
            JOIN taxa c ON c.id = o.parent_id AND c.rank = 'class' JOIN taxa p ON p.id = c.parent_id AND p.rank = 'phylum'
            JOIN taxa k ON k.id = p.parent_id AND k.rank = 'kingdom' JOIN taxa d ON d.id = k.parent_id AND d.rank = 'domain'
            WHERE s.rank = 'species'
            """) == (try Self.count("SELECT count(*) FROM taxa WHERE rank = 'species'")))
    }

    /// The embedded database holds only the project's own words: every description is under the
    /// dataset's licence and attributed to the dataset, none is Wikipedia's (other people's text
    /// stays out of the repository and the shipped database).
    @Test func descriptionsAreOnlyTheProjectsOwnWords() throws {
        #expect(try Self.count("SELECT count(*) FROM sqlite_master WHERE name IN ('descriptions', 'name_sources')") == 2)
        let info = Dictionary(uniqueKeysWithValues: try Self.query("SELECT key || '=' || value FROM dataset_info WHERE key IN ('name', 'license')")
            .compactMap { line -> (String, String)? in
                guard let eq = line.firstIndex(of: "=") else { return nil }
                return (String(line[..<eq]), String(line[line.index(after: eq)...]))
            })
        let license = try #require(info["license"]), name = try #require(info["name"])
        for found in try Self.query("SELECT DISTINCT coalesce(license, '<none>') FROM descriptions") {
            #expect(license.hasPrefix(found), "a description under \(found); the dataset is \(license)")
        }
        #expect(try Self.count("SELECT count(*) FROM descriptions WHERE source_name IS NOT '\(name.replacingOccurrences(of: "'", with: "''"))'") == 0)
        #expect(try Self.count("SELECT count(*) FROM descriptions WHERE source_url LIKE '%wikipedia%' OR source_name LIKE '%Wikipedia%'") == 0)
        #expect(try Self.count("SELECT count(*) FROM name_sources") == 0)
        #expect(!(try Self.query("SELECT value FROM dataset_info WHERE key = 'attribution'").joined().contains("Wikipedia")))
    }

    @Test func storedChildCountsMatchTheTree() throws {
        #expect(try Self.count("SELECT count(*) FROM taxa t WHERE child_count != (SELECT count(*) FROM taxa c WHERE c.parent_id = t.id)") == 0)
        #expect(try Self.count("SELECT count(*) FROM taxa WHERE child_count > 0") > 1000)
    }

    @Test func speciesCarryNamesAuthoritiesStatusTraitsAndReferences() throws {
        let species = try Self.count("SELECT count(*) FROM taxa WHERE rank = 'species'")
        func share(_ condition: String) throws -> Double {
            Double(try Self.count("SELECT count(*) FROM taxa t WHERE rank = 'species' AND \(condition)")) / Double(species)
        }
        // Microbes without a common name in real use have none: never an abbreviated binomial ("E. coli").
        #expect(try share("EXISTS (SELECT 1 FROM names n WHERE n.taxon_id = t.id AND n.lang = 'en' AND n.is_preferred = 1)") > 0.9)
        #expect(try Self.count("""
            SELECT count(*) FROM names WHERE name_type = 'common' AND (name GLOB '[A-Z]. [a-z]*' OR name GLOB '[A-Z][a-z]. [a-z]*')
            """) == 0)
        for lang in ["es", "fr", "de"] {
            #expect(try share("EXISTS (SELECT 1 FROM names n WHERE n.taxon_id = t.id AND n.lang = '\(lang)')") > 0.5, "\(lang)")
        }
        #expect(try share("author IS NOT NULL AND year IS NOT NULL") > 0.95)
        #expect(try share("conservation IS NOT NULL") > 0.95)
        #expect(try share("EXISTS (SELECT 1 FROM traits x WHERE x.taxon_id = t.id)") > 0.95)
        #expect(try share("EXISTS (SELECT 1 FROM refs r WHERE r.taxon_id = t.id)") > 0.95)
        #expect(try Self.count("SELECT count(*) FROM names WHERE name_type = 'synonym'") >= 100)
    }

    @Test func theEngineServesItWithNoArguments() async throws {
        let engine = try EngineProcess()
        let info = await engine.result(DatabaseInfoRequest())
        #expect(info?["source"] == "bundled")
        #expect(info?["dataset"]?["name"]?.stringValue?.contains("Tree of Life") == true)
        let lion = try #require(Int64(try Self.query("SELECT id FROM taxa WHERE scientific_name = 'Panthera leo'").first ?? ""))
        let detail = await engine.result(TaxonDetailRequest(id: lion, lang: "es"))
        #expect(detail?["preferredCommonName"] == "León")
        let lineage = detail?["lineage"]?.arrayValue?.compactMap { $0["scientificName"]?.stringValue } ?? []
        #expect(lineage == ["Eukaryota", "Animalia", "Chordata", "Mammalia", "Carnivora", "Felidae", "Panthera"])
        #expect(detail?["synonyms"]?.arrayValue?.contains { $0["name"] == "Felis leo" } == true)
        let sparrow = try #require(Int64(try Self.query("SELECT id FROM taxa WHERE scientific_name = 'Passer domesticus'").first ?? ""))
        #expect(await engine.result(TaxonGetRequest(id: sparrow))?["preferredCommonName"]?.stringValue?.lowercased() == "house sparrow")
    }

    @Test func itIsExactlyWhatItsSourcesBuild() throws {
        let rebuilt = FileManager.default.temporaryDirectory.appendingPathComponent("stol-rebuilt-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: rebuilt) }
        let source = EngineBinary.repositoryRoot.appendingPathComponent("dataset/default")
        let run = try EngineBinary.run(["build-db", "--taxa", source.path, "--out", rebuilt.path, "--quiet"])
        #expect(run.code == 0, "\(run.stderr)")
        let shippedDump = try Self.query(".dump", Self.shipped)
        let rebuiltDump = try Self.query(".dump", rebuilt)
        #expect(shippedDump.count == rebuiltDump.count)
        let firstDifference = zip(shippedDump, rebuiltDump).first { $0 != $1 }
        #expect(firstDifference == nil, "the shipped database is stale; rebuild it (see README): \(String(describing: firstDifference))")
    }
}
