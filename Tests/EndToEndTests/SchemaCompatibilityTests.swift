import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import Testing

/// Databases other than the engine's own current builds: the specification's tables without the
/// engine's extensions (served read-only through a cache), and databases in the layout of earlier
/// engine builds (served through views; refused by import with the command that rebuilds them).
@Suite(.serialized) struct SchemaCompatibilityTests {
    /// A copy of the fixture database changed by `sql`, read-only.
    static func variant(_ name: String, _ sql: String) throws -> URL {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("stol-schema-\(name)-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: try CompareTests.database.get(), to: copy)
        try HostileFiles.sqlite(copy, sql)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: copy.path)
        return copy
    }

    /// The layout of engine builds before schema v1 followed the specification.
    static let olderLayout = """
        CREATE TABLE old_traits (taxon_id INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (taxon_id, key, value)) WITHOUT ROWID;
        INSERT INTO old_traits SELECT taxon_id, trait_key, trait_value FROM traits;
        DROP TABLE traits;
        ALTER TABLE old_traits RENAME TO traits;
        ALTER TABLE euler_tour RENAME COLUMN seq TO idx;
        ALTER TABLE first_occurrence RENAME COLUMN seq TO idx;
        VACUUM;
        """

    /// The trigram index of every folded name that builds wrote before the engine stopped reading
    /// it, filled as they filled it.
    static let retiredTrigramIndex = """
        CREATE VIRTUAL TABLE fts_trigram USING fts5(
                        padded,
                        content = '',
                        tokenize = 'trigram'
                    );
        CREATE VIRTUAL TABLE fts_trigram_vocab USING fts5vocab('fts_trigram', 'row');
        INSERT INTO fts_trigram(rowid, padded) SELECT id, ' ' || folded || ' ' FROM search_names ORDER BY id;
        INSERT INTO fts_trigram(fts_trigram) VALUES ('optimize');
        VACUUM;
        """

    static func id(_ name: String, _ file: URL) throws -> Int64 {
        try #require(try EmbeddedDatabaseTests.query("SELECT id FROM taxa WHERE scientific_name = '\(name)'", file).first.flatMap { Int64($0) })
    }

    static func fingerprint(_ file: URL) throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        return "\(attributes[.size] ?? "") \(attributes[.modificationDate] ?? "")"
    }

    /// Browse, traits, search within a clade, compare and relatives on `engine` (the fixture's taxa).
    static func servesEveryMethod(_ engine: EngineProcess, _ file: URL) async throws {
        let leo = try id("Panthera leo", file), tiger = try id("Panthera tigris", file), felidae = try id("Felidae", file)
        let traits = await engine.result(TaxonTraitsRequest(id: leo))?["traits"]
        #expect(traits == .array([.object(["key": "diet", "label": "diet", "translated": true, "value": "carnivore"]),
                                  .object(["key": "habitat", "label": "habitat", "translated": true, "value": "savanna"])]))
        let within = await engine.result(SearchQueryRequest(query: "tiger", within: felidae))
        #expect(within?["results"]?.arrayValue?.first?["id"] == .integer(tiger))
        let fuzzy = await engine.result(SearchQueryRequest(query: "pantera leo"))
        #expect(fuzzy?["results"]?.arrayValue?.first?["id"] == .integer(leo))
        #expect(await engine.result(SearchAutocompleteRequest(prefix: "tig"))?["suggestions"]?.arrayValue?.isEmpty == false)
        let compared = await engine.result(CompareTaxaRequest(a: leo, b: tiger))
        #expect(compared?["traitSimilarity"]?.doubleValue == 0.5)
        #expect(compared?["traitDeltas"]?.arrayValue?.first?["shared"] == .array(["carnivore"]))
        #expect(await engine.result(CompareRelativesRequest(id: leo, n: 1))?["relatives"]?.arrayValue?.first?["taxon"]?["id"] == .integer(tiger))
        var stats: JSONValue?
        for _ in 0..<100 {
            stats = await engine.result(CompareStatsRequest())
            if stats?["state"] != "building" { break }
        }
        #expect(stats?["source"] == "euler_tour")
    }

    /// The files of `<data>/Caches` but the records of files that passed the content check.
    static func extensionCaches(_ data: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent("Caches").path)) ?? []).filter { !$0.hasPrefix("checked-") }
    }

    @Test func olderEngineDatabasesAreServedThroughViews() async throws {
        let old = try Self.variant("older", Self.olderLayout)
        defer { try? FileManager.default.removeItem(at: old) }
        let before = try Self.fingerprint(old)
        let engine = try EngineProcess(["--database", old.path])
        try await Self.servesEveryMethod(engine, old)
        #expect(try Self.fingerprint(old) == before)
        #expect(Self.extensionCaches(engine.dataDirectory).isEmpty, "it has every extension")
    }

    @Test func olderEngineStolIsRefusedWithTheRebuildCommand() async throws {
        let kit = try ReferenceTests.kit.get()
        let old = try Self.variant("older-stol", Self.olderLayout)
        defer { try? FileManager.default.removeItem(at: old) }
        let stol = kit.file("older-\(UUID().uuidString).stol")
        try ReferenceTests.pack(old, key: kit.key, out: stol)
        let engine = try EngineProcess(["--trusted-key", kit.publicKey])
        let error = await engine.call(DatabaseImportRequest(path: stol.path))?["error"]
        #expect(error?["data"]?["kind"] == "incompatibleSchema")
        let detail = error?["data"]?["detail"]?.stringValue ?? ""
        #expect(detail.contains("lacks column") && detail.contains("stol-engine build-db"), "\(detail)")
    }

    @Test func databasesWithTheRetiredTrigramIndexAreServedAndImported() async throws {
        let old = try Self.variant("trigram", Self.retiredTrigramIndex)
        defer { try? FileManager.default.removeItem(at: old) }
        #expect(try EmbeddedDatabaseTests.query("SELECT count(*) FROM fts_trigram_vocab", old).first.flatMap { Int($0) } ?? 0 > 0)
        // Read-only: every extension is there, so no cache is built (only the record that the
        // file passed the content check).
        let engine = try EngineProcess(["--database", old.path])
        try await Self.servesEveryMethod(engine, old)
        #expect(Self.extensionCaches(engine.dataDirectory).isEmpty)
        // Imported: validation accepts it, and the reference serves.
        let importer = try await ReferenceTests.importing(old, name: "trigram")
        try await Self.servesEveryMethod(importer, old)
    }

    /// A database with descriptions (the `descriptions` extension) imports and serves them; one
    /// whose table lacks a column the engine reads is served without them, never failing a read.
    @Test func descriptionsImportAndServe() async throws {
        let described = try Self.variant("described", """
            INSERT INTO descriptions (taxon_id, lang, text, source_title, source_url, license, source_name)
            SELECT id, 'en', 'A big cat that lives in groups.', 'Lion', 'https://example.org/lion', 'CC BY 4.0', 'Example' FROM taxa WHERE scientific_name = 'Panthera leo';
            VACUUM;
            """)
        defer { try? FileManager.default.removeItem(at: described) }
        let leo = try Self.id("Panthera leo", described)
        let kit = try ReferenceTests.kit.get()
        let stol = kit.file("described-\(UUID().uuidString).stol")
        defer { try? FileManager.default.removeItem(at: stol) }
        try ReferenceTests.pack(described, key: kit.key, out: stol)
        let importer = try EngineProcess(["--trusted-key", kit.publicKey])
        let result = await importer.call(DatabaseImportRequest(path: stol.path), timeout: .seconds(60))
        #expect(result?["result"]?["source"] == "reference", "\(String(describing: result))")
        let detail = await importer.result(TaxonDetailRequest(id: leo, lang: "fr"))
        #expect(detail?["description"]?["text"] == "A big cat that lives in groups." && detail?["description"]?["sourceName"] == "Example")

        let renamed = try Self.variant("renamed-description", "ALTER TABLE descriptions RENAME COLUMN text TO body; VACUUM;")
        defer { try? FileManager.default.removeItem(at: renamed) }
        let engine = try EngineProcess(["--database", renamed.path])
        let served = await engine.result(TaxonDetailRequest(id: leo))
        #expect(served?["taxon"]?["scientificName"] == "Panthera leo" && served?["description"] == nil)
    }

    @Test func specificationTablesAloneAreServedReadOnlyThroughACache() async throws {
        let bare = try Self.variant("bare", HostileFiles.dropExtensions + "VACUUM;")
        defer { try? FileManager.default.removeItem(at: bare) }
        let before = try Self.fingerprint(bare)
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("stol-schema-data-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let caches = data.appendingPathComponent("Caches")
        do {
            let engine = try EngineProcess(["--database", bare.path], dataDirectory: data)
            try await Self.servesEveryMethod(engine, bare)
            let leo = try Self.id("Panthera leo", bare)
            #expect(await engine.result(TaxonGetRequest(id: leo))?["childCount"] == 0)
            // The Storage screen counts the cache.
            let cacheBytes = await engine.result(StorageReportRequest())?["caches"]?["bytes"]?.int64Value ?? 0
            let onDisk = try FileManager.default.contentsOfDirectory(atPath: caches.path)
                .reduce(Int64(0)) { $0 + ((try? FileManager.default.attributesOfItem(atPath: caches.appendingPathComponent($1).path)[.size] as? Int64) ?? 0) }
            #expect(cacheBytes > 0 && cacheBytes == onDisk)
        }
        // The extension cache, and the record that the file passed the content check.
        func cacheFiles() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: caches.path).sorted() }
        let built = try cacheFiles()
        #expect(built.count == 2 && built[0].hasPrefix("checked-") && built[1].hasPrefix("extensions-"), "\(built)")
        #expect(try Self.fingerprint(bare) == before, "the database file is never written")
        // A second engine reuses the cache.
        let engine = try EngineProcess(["--database", bare.path], dataDirectory: data)
        #expect(await engine.result(SearchQueryRequest(query: "lion"))?["results"]?.arrayValue?.isEmpty == false)
        #expect(try cacheFiles() == built)
        engine.closeStdin()
        _ = await engine.waitForExit()
        // A changed file (here only its modification time) gets a new cache and is checked again;
        // the old cache and record go.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: bare.path)
        let changed = try EngineProcess(["--database", bare.path], dataDirectory: data)
        #expect(await changed.result(SearchQueryRequest(query: "lion"))?["results"]?.arrayValue?.isEmpty == false)
        let rebuilt = try cacheFiles()
        #expect(rebuilt.count == 2 && rebuilt[0] != built[0] && rebuilt[1] != built[1], "\(rebuilt)")
    }
}
