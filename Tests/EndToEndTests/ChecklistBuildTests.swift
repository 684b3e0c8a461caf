import Foundation
import STOLRPC
import STOLJSON
import Testing
import STOLProtocol
import STOLTestSupport

/// `build-db --dwca` and `--coldp` through the real binary, and the databases they make served
/// over stdio: lineages, synonyms, common names by language, homonyms told apart.
@Suite(.serialized) struct ChecklistBuildTests {
    static func sharedData(_ path: String) -> URL {
        EngineBinary.repositoryRoot.appendingPathComponent("../shared/data").appendingPathComponent(path).standardizedFileURL
    }

    static func build(_ arguments: [String], name: String) throws -> (db: URL, stdout: String, stderr: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stol-checklist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let db = dir.appendingPathComponent(name)
        let run = try EngineBinary.run(["build-db"] + arguments + ["--out", db.path, "--build-date", "2026-01-01", "--top-n", "3"])
        guard run.code == 0 else { throw Fixtures.FixtureError(message: run.stderr) }
        return (db, run.stdout, run.stderr)
    }

    /// Walks down from the roots by name.
    static func find(_ engine: EngineProcess, _ path: [String]) async -> JSONValue? {
        var children = await engine.result("taxon/roots")?["roots"]?.arrayValue ?? []
        var found: JSONValue?
        for name in path {
            found = children.first { $0["scientificName"]?.stringValue == name }
            guard let id = found?["id"] else { return nil }
            children = await engine.result("taxon/children", .object(["id": id, "limit": 1000]))?["children"]?.arrayValue ?? []
        }
        return found
    }

    @Test func citesColDPBuildsAndServes() async throws {
        let source = Self.sharedData("coldp/cites-appendix-i")
        try #require(FileManager.default.fileExists(atPath: source.path), "missing \(source.path)")
        let built = try Self.build(["--coldp", source.path], name: "cites.sqlite")
        defer { try? FileManager.default.removeItem(at: built.db.deletingLastPathComponent()) }
        #expect(built.stdout.contains("taxa 1778, species 1128"), "\(built.stdout)")
        #expect(built.stderr.contains("1778 taxa, 1777 synonyms, 4837 common names, 41 below species dropped"), "\(built.stderr)")

        let engine = try EngineProcess(["--database", built.db.path])
        let tiger = try #require(await Self.find(engine, ["Animalia", "Chordata", "Mammalia", "Carnivora", "Felidae", "Panthera", "Panthera tigris"]))
        let detail = try #require(await engine.result("taxon/detail", .object(["id": tiger["id"]!, "lang": "es"])))
        #expect(detail["preferredCommonName"] == "Tigre")
        #expect(detail["lineage"]?.arrayValue?.map { $0["scientificName"]?.stringValue ?? "" } == ["Animalia", "Chordata", "Mammalia", "Carnivora", "Felidae", "Panthera"])
        let synonyms = detail["synonyms"]?.arrayValue?.compactMap { $0["name"]?.stringValue }.sorted()
        #expect(synonyms == ["Panthera tigris altaica (Temminck, 1844)", "Panthera tigris sondaica Temminck, 1844", "Panthera tigris tigris Linnaeus, 1758"])
        for lang in ["en", "es", "fr"] { #expect(detail["names"]?[lang]?.arrayValue?.isEmpty == false, "\(lang)") }
        #expect(detail["names"]?["la"] == nil)
        #expect(detail["taxon"]?["author"] == "(Linnaeus, 1758)")
        #expect(detail["taxon"]?["year"] == 1758)
    }

    @Test func spiderDwCABuildsAndServes() async throws {
        let source = Self.sharedData("dwca/checklist_980.zip")
        try #require(FileManager.default.fileExists(atPath: source.path), "missing \(source.path)")
        let built = try Self.build(["--dwca", source.path], name: "spiders.sqlite")
        defer { try? FileManager.default.removeItem(at: built.db.deletingLastPathComponent()) }
        #expect(built.stdout.contains("taxa 506, species 323"), "\(built.stdout)")
        #expect(built.stdout.contains("skipped rows 33"), "\(built.stdout)")
        #expect(built.stderr.contains("checklist_980.zip:taxa.csv:2: no scientific name"), "\(built.stderr)")
        // Nothing but the database was written beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: built.db.deletingLastPathComponent().path) == ["spiders.sqlite"])

        let engine = try EngineProcess(["--database", built.db.path])
        let info = await engine.result("database/info")
        #expect(info?["taxaCount"] == 506)
        #expect(info?["dataset"]?["attribution"]?.stringValue?.contains("central European spider diversity") == true)
        let species = try #require(await Self.find(engine, ["Agelena", "Agelena labyrinthica"]))
        #expect(species["rank"] == "species")
    }

    @Test func strictFailsOnABadArchive() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stol-checklist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "<archive><core rowType='Taxon'>".write(to: dir.appendingPathComponent("meta.xml"), atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("bad.sqlite")
        let run = try EngineBinary.run(["build-db", "--dwca", dir.path, "--out", out.path, "--strict"])
        #expect(run.code != 0)
        #expect(run.stderr.contains("meta.xml:") && run.stderr.contains("malformed XML"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func homonymsAreToldApartOverTheProtocol() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stol-checklist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let rows = [
            ["taxonID", "parentNameUsageID", "scientificName", "taxonRank"],
            ["1", "", "Eukaryota", "domain"],
            ["2", "1", "Plantae", "kingdom"], ["3", "2", "Magnoliopsida", "class"], ["4", "3", "Morus", "genus"],
            ["5", "1", "Animalia", "kingdom"], ["6", "5", "Aves", "class"], ["7", "6", "Morus", "genus"], ["8", "7", "Morus bassanus", "species"],
        ]
        try rows.map { $0.joined(separator: "\t") }.joined(separator: "\n").write(to: dir.appendingPathComponent("taxa.txt"), atomically: true, encoding: .utf8)
        let meta = """
            <archive xmlns="http://rs.tdwg.org/dwc/text/">
              <core fieldsTerminatedBy="\\t" fieldsEnclosedBy="" ignoreHeaderLines="1" rowType="http://rs.tdwg.org/dwc/terms/Taxon">
                <files><location>taxa.txt</location></files>
                <id index="0"/>
                <field index="1" term="http://rs.tdwg.org/dwc/terms/parentNameUsageID"/>
                <field index="2" term="http://rs.tdwg.org/dwc/terms/scientificName"/>
                <field index="3" term="http://rs.tdwg.org/dwc/terms/taxonRank"/>
              </core>
            </archive>
            """
        try meta.write(to: dir.appendingPathComponent("meta.xml"), atomically: true, encoding: .utf8)
        let built = try Self.build(["--dwca", dir.path], name: "morus.sqlite")
        defer { try? FileManager.default.removeItem(at: built.db.deletingLastPathComponent()) }

        let engine = try EngineProcess(["--database", built.db.path])
        let gannet = try #require(await Self.find(engine, ["Eukaryota", "Animalia", "Aves", "Morus"]))
        let mulberry = try #require(await Self.find(engine, ["Eukaryota", "Plantae", "Magnoliopsida", "Morus"]))
        #expect(gannet["disambiguation"]?["display"] == "Morus (genus in Aves)")
        #expect(gannet["disambiguation"]?["ancestorRank"] == "class")
        #expect(mulberry["disambiguation"]?["display"] == "Morus (genus in Magnoliopsida)")
        let aves = try #require(await Self.find(engine, ["Eukaryota", "Animalia", "Aves"]))
        #expect(aves["disambiguation"] == nil)
        #expect(gannet["disambiguation"]?["ancestorId"] == aves["id"])
        let got = await engine.result("taxon/get", .object(["id": gannet["id"]!]))
        #expect(got?["disambiguation"]?["display"] == "Morus (genus in Aves)")
        let species = try #require(await Self.find(engine, ["Eukaryota", "Animalia", "Aves", "Morus", "Morus bassanus"]))
        let lineage = await engine.result("taxon/ancestors", .object(["id": species["id"]!]))?["ancestors"]?.arrayValue ?? []
        #expect(lineage.map { $0["disambiguation"]?["display"]?.stringValue } == [nil, nil, nil, "Morus (genus in Aves)"])
    }

    /// The embedded database was built before homonyms were handled; its two Morus are told apart.
    @Test func embeddedDatabaseHomonyms() async throws {
        let engine = try EngineProcess()
        let gannet = await engine.result("taxon/get", .object(["id": .integer(3_887_965_843_785_709)]))
        let mulberry = await engine.result("taxon/get", .object(["id": .integer(1_883_078_841_168_335)]))
        #expect(gannet?["scientificName"] == "Morus")
        #expect(gannet?["disambiguation"]?["display"] == "Morus (genus in Aves)")
        #expect(mulberry?["disambiguation"]?["display"] == "Morus (genus in Magnoliopsida)")
        let sulidae = await engine.result("taxon/get", .object(["id": gannet!["parentId"]!]))
        #expect(sulidae?["scientificName"] == "Sulidae")
        #expect(sulidae?["disambiguation"] == nil)
    }
}
