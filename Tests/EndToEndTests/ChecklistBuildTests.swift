import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLTestSupport
import Testing

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
        var children = await engine.result(TaxonRootsRequest())?["roots"]?.arrayValue ?? []
        var found: JSONValue?
        for name in path {
            found = children.first { $0["scientificName"]?.stringValue == name }
            guard let id = found?["id"]?.int64Value else { return nil }
            children = await engine.result(TaxonChildrenRequest(id: id, limit: 1000))?["children"]?.arrayValue ?? []
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
        let tigerID = try #require(tiger["id"]?.int64Value)
        let detail = try #require(await engine.result(TaxonDetailRequest(id: tigerID, lang: "es")))
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
        #expect(built.stdout.contains("skipped rows 33, issues 33"), "\(built.stdout)")
        #expect(built.stderr.contains("--dwca \(source.path): 356 rows read, 33 skipped (9.3 %), 506 taxa kept"), "\(built.stderr)")
        #expect(built.stderr.contains("checklist_980.zip:taxa.csv:2: no scientific name"), "\(built.stderr)")
        // Nothing but the database was written beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: built.db.deletingLastPathComponent().path) == ["spiders.sqlite"])

        let engine = try EngineProcess(["--database", built.db.path])
        let info = await engine.result(DatabaseInfoRequest())
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
        let got = await engine.result(TaxonGetRequest(id: try #require(gannet["id"]?.int64Value)))
        #expect(got?["disambiguation"]?["display"] == "Morus (genus in Aves)")
        let species = try #require(await Self.find(engine, ["Eukaryota", "Animalia", "Aves", "Morus", "Morus bassanus"]))
        let lineage = await engine.result(TaxonAncestorsRequest(id: try #require(species["id"]?.int64Value)))?["ancestors"]?.arrayValue ?? []
        #expect(lineage.map { $0["disambiguation"]?["display"]?.stringValue } == [nil, nil, nil, "Morus (genus in Aves)"])
    }

    // MARK: Archives as they really are (issue 37), and builds that lose their sources (issue 34)

    static let archiveTerms = ["taxonID", "parentNameUsageID", "acceptedNameUsageID", "scientificName", "taxonRank", "taxonomicStatus"]

    /// A `meta.xml` whose Taxon core is `file`, its columns the Darwin Core `terms` in order (the
    /// first is the id), and whose extensions are (rowType, file, terms after the core id).
    static func meta(
        _ terms: [String], file: String = "taxa.txt", separator: String = "\\t", quote: String = "",
        extensions: [(rowType: String, file: String, terms: [String])] = []
    ) -> String {
        func fields(_ terms: [String], from first: Int) -> String {
            terms.enumerated().map { #"<field index="\#($0.offset + first)" term="http://rs.tdwg.org/dwc/terms/\#($0.element)"/>"# }.joined(separator: "\n")
        }
        let format = #"fieldsTerminatedBy="\#(separator)" fieldsEnclosedBy="\#(quote)" ignoreHeaderLines="1""#
        var xml = """
            <archive xmlns="http://rs.tdwg.org/dwc/text/">
            <core \(format) rowType="http://rs.tdwg.org/dwc/terms/Taxon">
            <files><location>\(file)</location></files>
            <id index="0"/>
            \(fields(terms, from: 0))
            </core>
            """
        for ext in extensions {
            xml += """

                <extension \(format) rowType="\(ext.rowType)">
                <files><location>\(ext.file)</location></files>
                <coreid index="0"/>
                \(fields(ext.terms, from: 1))
                </extension>
                """
        }
        return xml + "\n</archive>\n"
    }

    /// A Darwin Core Archive folder whose core holds `rows` (after a header), in the columns of `archiveTerms`.
    static func archive(_ rows: [[String]], in dir: URL, name: String = "archive") throws -> URL {
        let folder = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try meta(archiveTerms).write(to: folder.appendingPathComponent("meta.xml"), atomically: true, encoding: .utf8)
        let text = ([["id", "parent", "accepted", "name", "rank", "status"]] + rows).map { $0.joined(separator: "\t") }.joined(separator: "\n") + "\n"
        try text.write(to: folder.appendingPathComponent("taxa.txt"), atomically: true, encoding: .utf8)
        return folder
    }

    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stol-checklist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The archive of issue 37: its accepted-name column holds something else, the status column
    /// says nothing, so every chain loops. It built `taxa 0` and exited 0; now its rows are kept
    /// as accepted, each loop reported once.
    @Test func anArchiveWhoseSynonymChainsAllLoopIsNotLeftEmpty() async throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var rows = [["1", "", "2", "Animalia", "kingdom", ""], ["2", "1", "1", "Chordata", "phylum", ""]]
        for i in 0..<60 {
            let id = 100 + i, partner = i % 2 == 0 ? id + 1 : id - 1
            rows.append(["\(id)", "2", "\(partner)", "Genus\(i) species", "species", ""])
        }
        let source = try Self.archive(rows, in: dir)
        let built = try Self.build(["--dwca", source.path], name: "loops.sqlite")
        defer { try? FileManager.default.removeItem(at: built.db.deletingLastPathComponent()) }
        #expect(built.stdout.contains("taxa 62, species 60"), "\(built.stdout)")
        #expect(built.stderr.contains("62 rows of synonym loops kept as accepted"), "\(built.stderr)")
        #expect(built.stderr.contains("synonyms point at each other in a loop (ids 1 → 2 → 1): 2 kept as accepted"), "\(built.stderr)")
        // Reported once each (31 loops), summarised by kind past the first 50 warnings.
        #expect(built.stderr.components(separatedBy: "synonyms point at each other in a loop").count - 1 == 31, "\(built.stderr)")
        #expect(built.stdout.contains("skipped rows 0, issues 31"), "\(built.stdout)")
        let engine = try EngineProcess(["--database", built.db.path])
        #expect(await engine.result(DatabaseInfoRequest())?["taxaCount"] == 62)
    }

    /// An archive that keeps no accepted taxon fails, writes nothing, and says why, even with
    /// --allow-partial.
    @Test func aBuildThatKeepsNoAcceptedTaxonFails() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try Self.archive([["1", "", "2", "Felis leo", "species", "synonym"], ["2", "", "1", "Leo leo", "species", "synonym"]], in: dir)
        let out = dir.appendingPathComponent("out.sqlite")
        for extra in [[], ["--allow-partial"]] {
            let run = try EngineBinary.run(["build-db", "--dwca", source.path, "--out", out.path] + extra)
            #expect(run.code != 0, "\(extra)")
            #expect(run.stderr.contains("no accepted taxon is left; --dwca \(source.path) yields no taxa (2 rows read, 2 skipped); nothing was written"), "\(run.stderr)")
            #expect(run.stderr.contains("synonyms point at each other in a loop (ids 1 → 2 → 1): 2 names skipped"), "\(run.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["archive"])
        }
    }

    /// A source that yields nothing (here an archive without meta.xml) fails the build, even when
    /// other sources yield plenty; --allow-partial builds it anyway, with a warning.
    @Test func aSourceThatYieldsNothingFailsUnlessPartialIsAllowed() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let empty = dir.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try "1\tAves\n".write(to: empty.appendingPathComponent("taxa.txt"), atomically: true, encoding: .utf8)
        let taxa = EngineBinary.repositoryRoot.appendingPathComponent("dataset/default").path
        let out = dir.appendingPathComponent("out.sqlite")
        let refused = try EngineBinary.run(["build-db", "--taxa", taxa, "--dwca", empty.path, "--out", out.path, "--quiet"])
        #expect(refused.code != 0)
        #expect(refused.stderr.contains("--dwca \(empty.path) yields no taxa (1 row read, 1 skipped) (--allow-partial builds it anyway); nothing was written"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        let allowed = try EngineBinary.run(["build-db", "--taxa", taxa, "--dwca", empty.path, "--out", out.path, "--quiet", "--allow-partial"])
        #expect(allowed.code == 0, "\(allowed.stderr)")
        #expect(allowed.stderr.contains("warning: --dwca \(empty.path) yields no taxa (1 row read, 1 skipped) (built anyway: --allow-partial)"), "\(allowed.stderr)")
        // Everything the dataset alone builds, and nothing from the empty archive.
        let alone = try EngineBinary.run(["build-db", "--taxa", taxa, "--out", dir.appendingPathComponent("alone.sqlite").path, "--quiet"])
        let counts = { (stdout: String) in stdout.split(separator: "\n").first { $0.hasPrefix("  taxa ") }.map(String.init) }
        #expect(counts(alone.stdout) != nil, "\(alone.stdout)")
        #expect(counts(allowed.stdout) == counts(alone.stdout), "\(allowed.stdout)")
    }

    /// A source that loses more than a fifth of its rows fails; --allow-partial builds it anyway.
    @Test func aSourceThatLosesMoreThanAFifthOfItsRowsFails() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Ten rows: two duplicates, and a family whose parent does not exist (with its genus).
        let rows = [
            ["1", "", "", "Animalia", "kingdom", "accepted"], ["2", "1", "", "Chordata", "phylum", "accepted"],
            ["3", "2", "", "Aves", "class", "accepted"], ["3", "2", "", "Reptilia", "class", "accepted"],
            ["4", "3", "", "Sulidae", "family", "accepted"], ["4", "3", "", "Laridae", "family", "accepted"],
            ["5", "4", "", "Morus", "genus", "accepted"], ["6", "99", "", "Anatidae", "family", "accepted"],
            ["7", "6", "", "Anas", "genus", "accepted"], ["8", "5", "", "Morus bassanus", "species", "accepted"],
        ]
        let source = try Self.archive(rows, in: dir)
        let out = dir.appendingPathComponent("out.sqlite")
        let refused = try EngineBinary.run(["build-db", "--dwca", source.path, "--out", out.path])
        #expect(refused.code != 0)
        #expect(refused.stderr.contains("--dwca \(source.path): 10 rows read, 4 skipped (40 %), 6 taxa kept"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--dwca \(source.path) lost 40 % of its rows (4 of 10), more than the 20 % allowed (--allow-partial builds it anyway); nothing was written"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        let allowed = try EngineBinary.run(["build-db", "--dwca", source.path, "--out", out.path, "--allow-partial"])
        #expect(allowed.code == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.contains("taxa 6,"), "\(allowed.stdout)")
    }

    /// The embedded database was built before homonyms were handled; its two Morus are told apart.
    @Test func embeddedDatabaseHomonyms() async throws {
        let engine = try EngineProcess()
        let gannet = await engine.result(TaxonGetRequest(id: 3_887_965_843_785_709))
        let mulberry = await engine.result(TaxonGetRequest(id: 1_883_078_841_168_335))
        #expect(gannet?["scientificName"] == "Morus")
        #expect(gannet?["disambiguation"]?["display"] == "Morus (genus in Aves)")
        #expect(mulberry?["disambiguation"]?["display"] == "Morus (genus in Magnoliopsida)")
        let sulidae = await engine.result(TaxonGetRequest(id: try #require(gannet?["parentId"]?.int64Value)))
        #expect(sulidae?["scientificName"] == "Sulidae")
        #expect(sulidae?["disambiguation"] == nil)
    }
}
