import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLTestSupport
import Testing

@Suite(.serialized) struct BrowseTests {
    static let database = Result { try Fixtures.buildDatabase() }

    func engine() throws -> EngineProcess {
        try EngineProcess(["--database", try Self.database.get().path])
    }

    /// Finds a taxon id by walking down from the roots by name.
    func id(_ engine: EngineProcess, path: [String]) async -> Int64? {
        await ChecklistBuildTests.find(engine, path)?["id"]?.int64Value
    }

    @Test func databaseInfoDescribesTheActiveDatabase() async throws {
        let engine = try engine()
        let info = await engine.result(DatabaseInfoRequest())
        #expect(info?["source"] == "bundled")
        #expect(info?["schemaVersion"] == 1)
        #expect(info?["taxaCount"]?.int64Value == 57)
        #expect(info?["dataset"]?["name"] == "Fixture")
        #expect((info?["sizeBytes"]?.int64Value ?? 0) > 0)
    }

    /// `database/languages` counts the embedded database's common names per language, as the
    /// names table holds them, most names first.
    @Test func languagesAreCountedFromTheNames() async throws {
        let engine = try EngineProcess()
        let languages = await engine.result(DatabaseLanguagesRequest())?["languages"]?.arrayValue ?? []
        let embedded = EngineBinary.repositoryRoot.appendingPathComponent("Sources/STOLEngine/Resources/default.sqlite")
        let expected = try SQLiteCLI.run(embedded, """
            SELECT lang || '|' || count(*) || '|' || count(DISTINCT taxon_id) FROM names
            WHERE name_type IN ('common', 'vernacular') GROUP BY lang ORDER BY count(*) DESC, lang
            """)
        #expect(languages.map { "\($0["lang"]?.stringValue ?? "")|\($0["names"]?.int64Value ?? -1)|\($0["taxa"]?.int64Value ?? -1)" } == expected)
        let tags = Set(languages.compactMap { $0["lang"]?.stringValue })
        #expect(tags.isSuperset(of: ["en", "es", "fr", "de"]), "\(tags)")
    }

    @Test func rootsChildrenAndAncestors() async throws {
        let engine = try engine()
        let roots = await engine.result(TaxonRootsRequest())?["roots"]?.arrayValue ?? []
        #expect(roots.map { $0["scientificName"]?.stringValue } == ["Bacteria", "Eukaryota"])
        let leo = try #require(await id(engine, path: ["Eukaryota", "Animalia", "Chordata", "Mammalia", "Carnivora", "Felidae", "Panthera", "Panthera leo"]))
        let ancestors = await engine.result(TaxonAncestorsRequest(id: leo))?["ancestors"]?.arrayValue ?? []
        #expect(ancestors.map { $0["scientificName"]?.stringValue } == ["Eukaryota", "Animalia", "Chordata", "Mammalia", "Carnivora", "Felidae", "Panthera"])
        #expect(ancestors.map { $0["rank"]?.stringValue } == ["domain", "kingdom", "phylum", "class", "order", "family", "genus"])
        try #require(ancestors.count == 7)
        let felidae = ancestors[5]
        let kids = await engine.result(TaxonChildrenRequest(id: try #require(felidae["id"]?.int64Value)))?["children"]?.arrayValue ?? []
        #expect(kids.map { $0["scientificName"]?.stringValue } == ["Felis", "Panthera"])
        #expect(kids.map { $0["childCount"] } == [1, 2])
    }

    /// Databases built before `child_count` was stored still open, and count children per query.
    @Test func aDatabaseWithoutStoredChildCountsGivesTheSameAnswers() async throws {
        let stored = try Self.database.get()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stol-oldschema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = folder.appendingPathComponent("old.sqlite")
        try FileManager.default.copyItem(at: stored, to: old)
        _ = try SQLiteCLI.run(old, "ALTER TABLE taxa DROP COLUMN child_count; VACUUM;")
        #expect(try SQLiteCLI.run(old, "SELECT count(*) FROM pragma_table_info('taxa') WHERE name = 'child_count'", readOnly: true) == ["0"])

        let current = try engine()
        let previous = try EngineProcess(["--database", old.path])
        let roots = await current.result(TaxonRootsRequest())?["roots"]?.arrayValue ?? []
        #expect(!roots.isEmpty)
        #expect(await previous.result(TaxonRootsRequest())?["roots"]?.arrayValue == roots)
        var queue = roots.compactMap { $0["id"]?.int64Value }
        var visited = 0
        while let id = queue.popLast() {
            let request = TaxonChildrenRequest(id: id, limit: 1000)
            let kids = await current.result(request)?["children"]?.arrayValue ?? []
            #expect(await previous.result(request)?["children"]?.arrayValue == kids)
            #expect(await previous.result(TaxonDetailRequest(id: id)) == (await current.result(TaxonDetailRequest(id: id))))
            queue += kids.compactMap { $0["id"]?.int64Value }
            visited += 1
        }
        #expect(visited == 57)
    }

    @Test func childrenPageWithoutDuplicatesAndFilter() async throws {
        let engine = try engine()
        let genus = try #require(await id(engine, path: ["Eukaryota", "Animalia", "Chordata", "Mammalia", "Rodentia", "Muridae", "Testus"]))
        var names: [String] = []
        var cursor: String? = nil
        var pages = 0
        repeat {
            let page = await engine.result(TaxonChildrenRequest(id: genus, limit: 10, cursor: cursor))
            names += page?["children"]?.arrayValue?.compactMap { $0["scientificName"]?.stringValue } ?? []
            cursor = page?["nextCursor"]?.stringValue
            pages += 1
        } while cursor != nil && pages < 10
        #expect(pages == 3)
        #expect(names.count == 25 && Set(names).count == 25 && names == names.sorted())
        let endangered = await engine.result(TaxonChildrenRequest(id: genus, limit: 100, conservation: .EN))
        #expect(endangered?["children"]?.arrayValue?.count == 13)
        #expect(endangered?["children"]?.arrayValue?.allSatisfy { $0["conservationStatus"] == "EN" } == true)
        let ranked = await engine.result(TaxonChildrenRequest(id: genus, rank: .genus))
        #expect(ranked?["children"]?.arrayValue?.isEmpty == true)
    }

    /// A cursor pages the children of the taxon it came from; another taxon's is refused, and
    /// the same cursor still works for its own taxon afterwards.
    @Test func aChildrenCursorIsBoundToItsParent() async throws {
        let engine = try engine()
        let family = try #require(await id(engine, path: ["Eukaryota", "Animalia", "Chordata", "Mammalia", "Rodentia", "Muridae"]))
        let genus = try #require(await id(engine, path: ["Eukaryota", "Animalia", "Chordata", "Mammalia", "Rodentia", "Muridae", "Testus"]))
        let cursor = try #require(await engine.result(TaxonChildrenRequest(id: genus, limit: 10))?["nextCursor"]?.stringValue)
        let error = await engine.call(TaxonChildrenRequest(id: family, cursor: cursor))?["error"]
        #expect(error?["code"] == .number("-32602"))
        #expect(error?["data"]?["field"] == "cursor")
        #expect(error?["data"]?["detail"]?.stringValue?.contains("taxon \(genus)") == true, "\(String(describing: error))")
        let next = await engine.result(TaxonChildrenRequest(id: genus, limit: 10, cursor: cursor))
        #expect(next?["children"]?.arrayValue?.count == 10)
    }

    @Test func namesTraitsReferencesAndDetail() async throws {
        let engine = try engine()
        let leo = try #require(await id(engine, path: ["Eukaryota", "Animalia", "Chordata", "Mammalia", "Carnivora", "Felidae", "Panthera", "Panthera leo"]))
        let taxon = await engine.result(TaxonGetRequest(id: leo, lang: "de"))
        #expect(taxon?["preferredCommonName"] == "Löwe")
        #expect(taxon?["preferredCommonNameLang"] == "de")
        #expect(taxon?["author"] == "Linnaeus" && taxon?["year"] == 1758 && taxon?["conservationStatus"] == "VU")
        let french = await engine.result(TaxonGetRequest(id: leo, lang: "fr"))
        #expect(french?["preferredCommonName"] == "Lion", "falls back to English")
        #expect(french?["preferredCommonNameLang"] == "en", "and says so")
        let austrian = await engine.result(TaxonGetRequest(id: leo, lang: "de-AT"))
        #expect(austrian?["preferredCommonName"] == "Löwe" && austrian?["preferredCommonNameLang"] == "de", "the primary subtag's name, tagged as it is stored")
        let every = await engine.result(TaxonNamesRequest(id: leo))?["names"]?.arrayValue ?? []
        let languages = Set(every.compactMap { $0["lang"]?.stringValue })
        #expect(languages.isSuperset(of: ["de", "en", "es"]), "no lang: every language, not English only")
        let spanish = await engine.result(TaxonNamesRequest(id: leo, lang: "es"))?["names"]?.arrayValue ?? []
        #expect(spanish.contains { $0["name"] == "León" && $0["isPreferred"] == true })
        #expect(spanish.contains { $0["name"] == "Felis leo" && $0["type"] == "synonym" })
        #expect(!spanish.contains { $0["lang"] == "en" })
        let traits = await engine.result(TaxonTraitsRequest(id: leo))?["traits"]?.arrayValue ?? []
        #expect(traits == [.object(["key": "diet", "label": "diet", "translated": true, "value": "carnivore"]),
                           .object(["key": "habitat", "label": "habitat", "translated": true, "value": "savanna"])])
        // In German: the key's label and the value, translated.
        let german = await engine.result(TaxonTraitsRequest(id: leo, lang: "de"))?["traits"]?.arrayValue ?? []
        #expect(german == [.object(["key": "diet", "label": "Ernährung", "translated": true, "value": "Fleischfresser"]),
                           .object(["key": "habitat", "label": "Lebensraum", "translated": true, "value": "Savanne"])])
        let refs = await engine.result(TaxonReferencesRequest(id: leo))?["references"]?.arrayValue ?? []
        #expect(refs.first?["citation"]?.stringValue?.contains("Systema Naturae") == true)

        let detail = try #require(await engine.result(TaxonDetailRequest(id: leo, lang: "es")))
        #expect(detail["taxon"]?["scientificName"] == "Panthera leo")
        #expect(detail["preferredCommonName"] == "León")
        #expect(detail["preferredCommonNameLang"] == "es" && detail["taxon"]?["preferredCommonNameLang"] == "es")
        #expect(detail["lineage"]?.arrayValue?.count == 7)
        #expect(detail["names"]?["en"]?.arrayValue?.map { $0["name"] } == ["Lion", "African lion"])
        #expect(detail["names"]?["de"]?.arrayValue?.count == 1)
        #expect(detail["synonyms"]?.arrayValue?.map { $0["name"] } == ["Felis leo"])
        #expect(detail["traits"]?.arrayValue?.count == 2)
        #expect(detail["references"]?.arrayValue?.count == 1)
        #expect(detail["childCount"] == 0)
    }

    @Test func unknownIdsAndBadParamsAreTypedErrors() async throws {
        let engine = try engine()
        let contracts: [any RPCRequest.Type] = [
            TaxonGetRequest.self, TaxonChildrenRequest.self, TaxonAncestorsRequest.self, TaxonNamesRequest.self, TaxonTraitsRequest.self,
            TaxonReferencesRequest.self, TaxonDetailRequest.self,
        ]
        for contract in contracts {
            let method = contract.method
            let error = await engine.call(contract, params: .object(["id": 424242]))?["error"]
            #expect(error?["code"] == .number("-32002"), "\(method)")
            #expect(error?["data"]?["kind"] == "taxonNotFound", "\(method)")
            #expect(error?["data"]?["id"] == 424242, "\(method)")
        }
        let cases: [(JSONValue, String)] = [
            (.object(["id": -1]), "id"), (.object(["id": "12"]), "id"), (.object(["id": .number("1.5")]), "id"), (.object([:]), "id"),
            (.object(["id": 1, "lang": "English!"]), "lang"), (.object(["id": 1, "limit": 0]), "limit"),
            (.object(["id": 1, "limit": 5000]), "limit"), (.object(["id": 1, "cursor": "garbage"]), "cursor"),
            (.object(["id": 1, "rank": "tribe"]), "rank"), (.object(["id": 1, "conservation": "XX"]), "conservation"),
        ]
        for (params, field) in cases {
            let error = await engine.call(TaxonChildrenRequest.self, params: params)?["error"]
            #expect(error?["code"] == .number("-32602"), "\(params)")
            #expect(error?["data"]?["field"] == .string(field), "\(params)")
        }
        #expect(await engine.result(PingRequest()) == .object([]), "still serving")
    }

    @Test func aNewerSchemaIsRefused() async throws {
        let source = try Self.database.get()
        let copy = source.deletingLastPathComponent().appendingPathComponent("newer.sqlite")
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: source, to: copy)
        _ = try SQLiteCLI.run(copy, "UPDATE schema_version SET version = 99")
        let run = try EngineBinary.run(["--database", copy.path], stdin: RequestLine.encode(PingRequest(), id: 1) + "\n")
        #expect(run.code == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("schema version 99"))
    }
}

@Suite struct BuildDatabaseTests {
    @Test func buildsAreReproducible() throws {
        let a = try Fixtures.buildDatabase()
        let b = try Fixtures.buildDatabase()
        #expect(try Data(contentsOf: a) == Data(contentsOf: b))
    }

    @Test func badRowsAreReportedWithLinesOrFailAStrictBuild() throws {
        let bad = Fixtures.taxa + "  colour: red\nfamily\nspecies Wrongus name\n"
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("stol-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        try bad.write(to: source.appendingPathComponent("bad.taxa"), atomically: true, encoding: .utf8)
        let out = source.appendingPathComponent("out.sqlite").path
        let lenient = try EngineBinary.run(["build-db", "--taxa", source.path, "--out", out, "--quiet"])
        #expect(lenient.code == 0)
        let lines = Fixtures.taxa.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lenient.stderr.contains("bad.taxa:\(lines):"))
        #expect(lenient.stderr.contains("bad.taxa:\(lines + 1):"))
        #expect(lenient.stderr.contains("Wrongus name does not start with its genus"))
        // Two lines left out; the misnamed species is kept, and reported.
        #expect(lenient.stdout.contains("skipped rows 2, issues 3"), "\(lenient.stdout)")
        let strict = try EngineBinary.run(["build-db", "--taxa", source.path, "--out", out, "--strict", "--quiet"])
        #expect(strict.code != 0)
        #expect(strict.stderr.contains("bad.taxa:\(lines):"))
    }
}
