#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import STOLJSON
import STOLMCP
import STOLProtocol
import Testing

/// Taxonomy databases with wrong values that got in anyway: installed by an engine from before the
/// import checked values, or by another engine on the same data directory. They are planted here
/// as `reference.sqlite` with the setting on, and the real binary must never trap: a request that
/// meets a bad value answers -32020 `databaseCorrupt` naming the table, column and row, everything
/// else keeps working, `database/info` reports it, and a restart on the data directory answers.
@Suite(.serialized) struct HostileServingTests {
    static let setup = HostileFileTests.setup

    /// A data directory whose active reference database is the fixture changed by `sql`.
    static func plant(_ sql: String, in data: URL? = nil) throws -> URL {
        let files = try setup.get().files
        let data = data ?? FileManager.default.temporaryDirectory.appendingPathComponent("stol-serving-\(UUID().uuidString)")
        let databases = data.appendingPathComponent("Databases")
        try FileManager.default.createDirectory(at: databases, withIntermediateDirectories: true)
        let bytes = try files.variant(of: files.databaseURL, sql: "PRAGMA ignore_check_constraints = ON; " + sql)
        // As an import installs it: written beside, then renamed over the old file.
        let staged = databases.appendingPathComponent("planted-\(UUID().uuidString).sqlite")
        try Data(bytes).write(to: staged)
        guard rename(staged.path, databases.appendingPathComponent("reference.sqlite").path) == 0 else { throw POSIXError(.EIO) }
        try Data(#"{"referenceActive": true}"#.utf8).write(to: data.appendingPathComponent("settings.json"), options: .atomic)
        return data
    }

    static func id(_ name: String) throws -> TaxonID {
        let files = try setup.get().files
        return try #require(TaxonID(try SQLiteCLI.run(files.databaseURL, "SELECT id FROM taxa WHERE scientific_name = '\(name)'", readOnly: true).first ?? ""))
    }

    /// One planted fault and the request that meets it.
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var sql: String
        /// The request that reads the bad value.
        var request: @Sendable () throws -> any RPCRequest
        /// Text the error's `data.detail` must hold.
        var detail: String
        var description: String { name }
    }

    static let lion = HostileFiles.lion, tiger = HostileFiles.tiger
    static func lionID() throws -> TaxonID { try HostileServingTests.id("Panthera leo") }

    static let cases: [Case] = [
        Case(name: "taxa.year 'abc' (children of Panthera)", sql: "UPDATE taxa SET year = 'abc' WHERE id = \(lion);", request: { TaxonChildrenRequest(id: try HostileServingTests.id("Panthera")) }, detail: "taxa.year holds text 'abc'"),
        Case(name: "a root's scientific_name as a blob (roots)", sql: "UPDATE taxa SET scientific_name = x'4575' WHERE parent_id IS NULL;", request: { TaxonRootsRequest() }, detail: "taxa.scientific_name holds a blob"),
        Case(name: "a root's scientific_name not UTF-8 (roots)", sql: "UPDATE taxa SET scientific_name = CAST(x'45ff' AS TEXT) WHERE parent_id IS NULL;", request: { TaxonRootsRequest() }, detail: "not valid UTF-8"),
        Case(name: "taxa.child_count 'many' (taxon/get, answered on the intake thread)", sql: "UPDATE taxa SET child_count = 'many' WHERE id = \(lion);",
             request: { TaxonGetRequest(id: try lionID()) }, detail: "taxa.child_count holds text 'many'"),
        Case(name: "taxa.rank 'bogus'", sql: "UPDATE taxa SET rank = 'bogus' WHERE id = \(lion);", request: { TaxonGetRequest(id: try lionID()) }, detail: "taxa.rank holds 'bogus'"),
        Case(name: "taxa.status 'weird'", sql: "UPDATE taxa SET status = 'weird' WHERE id = \(lion);", request: { TaxonDetailRequest(id: try lionID()) }, detail: "taxa.status holds 'weird'"),
        Case(name: "taxa.conservation as a blob", sql: "UPDATE taxa SET conservation = x'5655' WHERE id = \(lion);", request: { TaxonGetRequest(id: try lionID()) }, detail: "taxa.conservation holds a blob"),
        Case(name: "NUL in a scientific name", sql: "UPDATE taxa SET scientific_name = 'Panthera' || char(0) || ' leo' WHERE id = \(lion);", request: { TaxonGetRequest(id: try lionID()) }, detail: "NUL"),
        Case(name: "names.name as a blob", sql: "UPDATE names SET name = x'4c696f6e' WHERE taxon_id = \(lion);", request: { TaxonNamesRequest(id: try lionID()) }, detail: "names.name holds a blob"),
        Case(name: "names.is_preferred 'yes'", sql: "UPDATE names SET is_preferred = 'yes' WHERE taxon_id = \(lion);", request: { TaxonNamesRequest(id: try lionID()) }, detail: "names.is_preferred holds text 'yes'"),
        Case(name: "traits.trait_value as a blob", sql: "UPDATE traits SET trait_value = x'00' WHERE taxon_id = \(lion);", request: { TaxonTraitsRequest(id: try lionID()) }, detail: "traits.trait_value holds a blob"),
        Case(name: "refs.citation as a blob", sql: "UPDATE refs SET citation = x'00' WHERE taxon_id = \(lion);", request: { TaxonReferencesRequest(id: try lionID()) }, detail: "refs.citation holds a blob"),
        Case(name: "top_n_relatives.relative_id 'abc'", sql: "UPDATE top_n_relatives SET relative_id = 'abc' WHERE taxon_id = \(lion);", request: { CompareRelativesRequest(id: try lionID()) }, detail: "top_n_relatives.relative_id holds text 'abc'"),
        Case(name: "search_names.name as a blob (search)", sql: "UPDATE search_names SET name = x'4c696f6e' WHERE taxon_id = \(lion);", request: { SearchQueryRequest(query: "panthera") }, detail: "search_names.name holds a blob"),
        Case(name: "a parent cycle, lion and tiger (ancestors)", sql: "UPDATE taxa SET parent_id = \(tiger) WHERE id = \(lion); UPDATE taxa SET parent_id = (SELECT id FROM taxa WHERE scientific_name = 'Panthera leo') WHERE scientific_name = 'Panthera tigris';",
             request: { TaxonAncestorsRequest(id: try lionID()) }, detail: "does not reach a root"),
        Case(name: "a parent cycle, lion and tiger (lineages)", sql: "UPDATE taxa SET parent_id = \(tiger) WHERE id = \(lion); UPDATE taxa SET parent_id = (SELECT id FROM taxa WHERE scientific_name = 'Panthera leo') WHERE scientific_name = 'Panthera tigris';",
             request: { TaxonLineagesRequest(ids: [try lionID()]) }, detail: "does not reach a root"),
        Case(name: "a 100,000-deep chain (ancestors of its end)", sql: HostileFiles.chain(100_000), request: { TaxonAncestorsRequest(id: 8_000_100_000) }, detail: "more than \(10_000) ancestors"),
    ]

    @Test(arguments: cases)
    func aBadValueIsATypedErrorAndEverythingElseKeepsWorking(_ hostile: Case) async throws {
        let data = try Self.plant(hostile.sql)
        defer { try? FileManager.default.removeItem(at: data) }
        let engine = try EngineProcess(["--data-dir", data.path])
        #expect(await engine.result(DatabaseInfoRequest())?["source"] == "reference", "\(engine.stderrText.suffix(1000))")
        let response = await engine.call(try hostile.request(), timeout: .seconds(60))
        let error = response?["error"]
        #expect(error?["code"] == -32020, "\(hostile): \(String(describing: response))")
        #expect(error?["data"]?["kind"] == "databaseCorrupt", "\(hostile): \(String(describing: response))")
        #expect(error?["data"]?["detail"]?.stringValue?.contains(hostile.detail) == true, "\(hostile): \(String(describing: response))")
        #expect(error?["data"]?["fallback"] == "database/deactivateReference")
        #expect(engine.process.isRunning, "\(hostile): \(engine.stderrText.suffix(2000))")
        // Every other method answers, with a result or a typed error: never an internal error.
        let wolf = try Self.id("Canis lupus")
        let others: [any RPCRequest] = [
            TaxonGetRequest(id: wolf), TaxonDetailRequest(id: try Self.lionID()),
            TaxonChildrenRequest(id: try Self.id("Panthera")), TaxonRootsRequest(),
            SearchQueryRequest(query: "lion"), SearchAutocompleteRequest(prefix: "pan"),
            CompareTaxaRequest(a: try Self.lionID(), b: wolf),
            FavoritesAddRequest(taxonId: try Self.lionID()), FavoritesListRequest(), FavoritesExportRequest(),
            DatabaseLanguagesRequest(), AboutRequest(),
        ]
        for request in others {
            let method = type(of: request).method
            let answer = await engine.call(request, timeout: .seconds(60))
            let code = answer?["error"]?["code"]
            #expect(answer?["result"] != nil || code == -32020, "\(hostile): \(method) answered \(String(describing: answer))")
        }
        #expect(await engine.result(DatabaseInfoRequest())?["damage"]?["detail"]?.stringValue?.isEmpty == false, "\(hostile): database/info reports the damage")
        #expect(await engine.result(PingRequest()) == .object([]))
        #expect(!engine.stderrText.contains("Fatal error"), "\(engine.stderrText.suffix(2000))")
        engine.closeStdin()
        #expect(await engine.waitForExit() == 0)
        // A restart on the same data directory answers, and the fallback works.
        let again = try EngineProcess(["--data-dir", data.path])
        #expect(await again.result(PingRequest()) == .object([]))
        #expect(await again.result(DeactivateReferenceRequest())?["source"] == "bundled")
        #expect(await again.result(TaxonGetRequest(id: wolf))?["scientificName"] == "Canis lupus")
        again.closeStdin()
        #expect(await again.waitForExit() == 0)
    }

    static let attribution = "UPDATE dataset_info SET value = x'ff' WHERE key = 'attribution';"

    /// The value that bricked a data directory: the engine starts on the bundled database, says
    /// why, and every switch still works; MCP mode starts too.
    @Test func aDatasetInfoValueThatIsNotTextNeverStopsAStart() async throws {
        let data = try Self.plant(Self.attribution)
        defer { try? FileManager.default.removeItem(at: data) }
        let engine = try EngineProcess(["--data-dir", data.path])
        #expect(await engine.result(PingRequest()) == .object([]), "\(engine.stderrText.suffix(2000))")
        let info = await engine.result(DatabaseInfoRequest())
        #expect(info?["source"] == "bundled")
        #expect(info?["referenceFallback"]?["detail"]?.stringValue?.contains("dataset_info.value holds a blob of 1 bytes") == true, "\(String(describing: info))")
        #expect(info?["referenceFallback"]?["at"]?.stringValue?.isEmpty == false)
        let activate = await engine.call(ActivateReferenceRequest())
        #expect(activate?["error"]?["data"]?["kind"] == "databaseCorrupt", "\(String(describing: activate))")
        #expect(activate?["error"]?["data"]?["detail"]?.stringValue?.contains("dataset_info.value") == true)
        #expect(await engine.result(DeactivateReferenceRequest(delete: true))?["source"] == "bundled")
        #expect(await engine.result(DatabaseInfoRequest())?["referenceFallback"] == nil, "a choice made since clears it")
        engine.closeStdin()
        #expect(await engine.waitForExit() == 0)

        // MCP mode on the same kind of data directory.
        let mcpData = try Self.plant(Self.attribution)
        defer { try? FileManager.default.removeItem(at: mcpData) }
        let mcp = try EngineProcess(["mcp", "--data-dir", mcpData.path])
        let initialized = await mcp.call(MCPServer.InitializeRequest(protocolVersion: "2025-06-18", capabilities: .object([:]), clientInfo: .object(["name": "test", "version": "1"])))
        #expect(initialized?["result"] != nil, "\(String(describing: initialized)) \(mcp.stderrText.suffix(2000))")
        let lion = await mcp.call(MCPServer.CallToolRequest(name: "get_taxon", arguments: .object(["taxon": "Panthera leo"])))
        #expect(lion?["result"] != nil, "\(String(describing: lion))")
        mcp.closeStdin()
        #expect(await mcp.waitForExit() == 0)
    }

    /// MCP's tools meet bad values as tool errors, and the server keeps answering.
    @Test func mcpToolsAnswerABadValueWithAToolError() async throws {
        let data = try Self.plant("UPDATE taxa SET year = 'abc' WHERE id = \(Self.lion);")
        defer { try? FileManager.default.removeItem(at: data) }
        let mcp = try EngineProcess(["mcp", "--data-dir", data.path])
        _ = await mcp.call(MCPServer.InitializeRequest(protocolVersion: "2025-06-18", capabilities: .object([:]), clientInfo: .object(["name": "test", "version": "1"])))
        let children = await mcp.call(MCPServer.CallToolRequest(name: "list_children", arguments: .object(["taxon": "Panthera"])))
        let failed = children?["result"]?["isError"] == true || children?["error"] != nil
        #expect(failed, "\(String(describing: children))")
        #expect("\(String(describing: children))".contains("taxa.year"), "\(String(describing: children))")
        #expect(mcp.process.isRunning, "\(mcp.stderrText.suffix(2000))")
        let wolf = await mcp.call(MCPServer.CallToolRequest(name: "get_taxon", arguments: .object(["taxon": "Canis lupus"])))
        #expect(wolf?["result"]?["isError"] != true && wolf?["result"] != nil, "\(String(describing: wolf))")
        mcp.closeStdin()
        #expect(await mcp.waitForExit() == 0)
    }

    /// Another engine (one from before the import checks values) installs a bad file on the data
    /// directory this engine runs on: this one follows it without dying.
    @Test func anEngineSurvivesABadFileAnotherEngineInstalls() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("stol-serving-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let engine = try EngineProcess(["--data-dir", data.path])
        #expect(await engine.result(DatabaseInfoRequest())?["source"] == "bundled")
        // dataset_info that cannot be read: the engine keeps the bundled database and says why.
        _ = try Self.plant(Self.attribution, in: data)
        var info: JSONValue?
        for _ in 0..<100 {
            info = await engine.result(DatabaseInfoRequest())
            if info?["referenceFallback"] != nil { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(info?["source"] == "bundled")
        #expect(info?["referenceFallback"]?["detail"]?.stringValue?.contains("dataset_info.value") == true, "\(String(describing: info))")
        #expect(await engine.result(PingRequest()) == .object([]), "\(engine.stderrText.suffix(2000))")
        // A file that opens, with a bad value inside: followed, and the value is a typed error.
        _ = try Self.plant("UPDATE taxa SET year = 'abc' WHERE id = \(Self.lion);", in: data)
        let switched = await engine.next(timeout: .seconds(20)) { $0["method"] == "database/didSwitch" && $0["params"]?["source"] == "reference" }
        #expect(switched != nil)
        let children = await engine.call(TaxonChildrenRequest(id: try Self.id("Panthera")))
        #expect(children?["error"]?["data"]?["kind"] == "databaseCorrupt", "\(String(describing: children))")
        #expect(await engine.result(DatabaseInfoRequest())?["referenceFallback"] == nil)
        #expect(engine.process.isRunning)
        engine.closeStdin()
        #expect(await engine.waitForExit() == 0)
    }
}
