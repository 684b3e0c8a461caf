import Foundation
import Logging
import STOLClient
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLTestSupport
import Testing

@testable import STOLEngine

/// protocol/openrpc.json must describe exactly the methods the engine serves.
@Suite struct ProtocolDocumentTests {
    static let lifecycle: Set<String> = ["initialize", "initialized", "ping", "shutdown", "exit", "rpc.discover", "$/cancelRequest"]

    @Test func everyServedMethodIsDocumentedAndViceVersa() throws {
        let document = try JSONParser.parse(try EngineInfo.openRPCDocument())
        let documented = Set(document["methods"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? [])
        let engine = try Engine(
            configuration: .init(dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("stol-doc-\(UUID().uuidString)")),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let served = Set(engine.methods().names)
        #expect(served.subtracting(documented).isEmpty, "served but undocumented: \(served.subtracting(documented).sorted())")
        #expect(documented.subtracting(served).subtracting(Self.lifecycle).isEmpty, "documented but not served: \(documented.subtracting(served).subtracting(Self.lifecycle).sorted())")
    }

    @Test func everyDocumentedMethodHasASummaryAndAResult() throws {
        let document = try JSONParser.parse(try EngineInfo.openRPCDocument())
        for method in document["methods"]?.arrayValue ?? [] {
            #expect(method["summary"]?.stringValue?.isEmpty == false, "\(method["name"] ?? nil)")
            #expect(method["result"] != nil, "\(method["name"] ?? nil)")
        }
    }

    /// Every method the binary serves: the engine's table and the server's lifecycle methods.
    static func servedTable(_ engine: Engine) -> MethodTable {
        var table = LifecycleMethods.table(RPCServer.Identity())
        table.merge(engine.methods())
        return table
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The committed document is what the method types generate: the same methods, each param
    /// named and required as its `Params` type reads it, each ordering as its contract declares.
    /// `STOL_UPDATE_OPENRPC=1 swift test --filter ProtocolDocumentTests` rewrites both copies.
    @Test func theCommittedDocumentIsWhatTheMethodTypesGenerate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stol-doc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let engine = try Engine(configuration: .init(dataDirectory: directory), logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let committedURL = Self.repository.appendingPathComponent("protocol/openrpc.json")
        let committed = [UInt8](try Data(contentsOf: committedURL))
        let generated = JSONWriter.formatted(
            try OpenRPCDocument.refreshed(try JSONParser.parse(committed), from: Self.servedTable(engine), inline: ["exit", "$/cancelRequest"]))
        if ProcessInfo.processInfo.environment["STOL_UPDATE_OPENRPC"] == "1", generated != committed {
            try Data(generated).write(to: committedURL)
            try Data(generated).write(to: Self.repository.appendingPathComponent("Sources/STOLEngine/Resources/openrpc.json"))
            return
        }
        let upToDate = generated == committed
        #expect(upToDate, "protocol/openrpc.json is stale: run STOL_UPDATE_OPENRPC=1 swift test --filter ProtocolDocumentTests")
    }

    /// Each request's shape, as the generator reads it, for a few methods whose params are known.
    @Test func paramsShapesFollowTheTypes() {
        let search = SearchQueryRequest.paramsShape.members
        #expect(search.map(\.name) == ["query", "rank", "conservation", "within", "habitat", "lang", "limit", "offset", "cursor"])
        #expect(search.allSatisfy { !$0.required })
        #expect(search.first { $0.name == "within" }?.schema == .object(["type": "integer"]))
        #expect(search.first { $0.name == "rank" }?.schema == .object(["type": "string", "enum": .array(Rank.allCases.map { .string($0.rawValue) })]))
        let get = TaxonGetRequest.paramsShape.members
        #expect(get.map { "\($0.name):\($0.required)" } == ["id:true", "lang:false"])
        let lca = CompareLCARequest.paramsShape.members
        #expect(lca.first?.schema == .object(["type": "array", "items": .object(["type": "array", "items": .object(["type": "integer"])])]))
        #expect(FavoritesClearRequest.paramsShape.members.isEmpty)
    }

    /// Every contract of the protocol is served under its name, and the engine serves nothing
    /// without one: clients and engine share every method's types.
    @Test func everyContractIsServedAndEveryMethodHasAContract() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stol-doc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let engine = try Engine(configuration: .init(dataDirectory: directory), logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let table = Self.servedTable(engine)
        for contract in ProtocolCatalog.requests {
            let served = try #require(table[contract.method], "\(contract.method) is not served")
            #expect(served.contract.map { ObjectIdentifier($0) } == ObjectIdentifier(contract), "\(contract.method) is served with another contract")
        }
        let contracts = Set(ProtocolCatalog.requests.map { $0.method } + ProtocolCatalog.notifications.map { $0.method })
        #expect(Set(table.names).subtracting(contracts).isEmpty, "served without a contract: \(Set(table.names).subtracting(contracts).sorted())")
    }

    /// Every integer param of every engine method has a range (`BoundedParams`), which the
    /// generator writes into the document: a new integer param without one fails here.
    @Test func everyIntegerParamHasARange() throws {
        let document = try JSONParser.parse(try EngineInfo.openRPCDocument())
        var unbounded: [String] = []
        func visit(_ name: String, _ schema: JSONValue) {
            if let items = schema["items"] { visit(name + ".*", items) }
            let integer = schema["type"] == "integer" || schema["type"]?.arrayValue?.contains("integer") == true
            if integer, schema["minimum"] == nil || schema["maximum"] == nil { unbounded.append(name) }
        }
        for method in document["methods"]?.arrayValue ?? [] where !Self.lifecycle.contains(method["name"]?.stringValue ?? "") {
            for param in method["params"]?.arrayValue ?? [] {
                visit("\(method["name"]?.stringValue ?? "?") \(param["name"]?.stringValue ?? "?")", param["schema"] ?? .null)
            }
        }
        #expect(unbounded.isEmpty, "integer params without minimum and maximum: \(unbounded)")
        #expect(TaxonChildrenRequest.paramsBounds["limit"] == 1...1000)
        #expect(CompareLCARequest.paramsBounds["pairs.*.*"] == IntegerBounds.taxonIDs)
        let lca = document["methods"]?.arrayValue?.first { $0["name"] == "compare/lca" }?["params"]?.arrayValue?.first?["schema"]?["items"]?["items"]
        #expect(lca?["minimum"] == 1 && lca?["maximum"] == .integer(IntegerBounds.taxonIDs.upperBound))
    }

    /// Every key of real answers is documented in its method's result schema (through `$ref`,
    /// `oneOf` and nested objects), so the document cannot fall behind the result types.
    @Test func everyResultKeyOfRealAnswersIsDocumented() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stol-doc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let engine = try Engine(configuration: .init(dataDirectory: directory), logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let client = InProcessClient.serving { engine.methods() }
        let document = try JSONParser.parse(try EngineInfo.openRPCDocument())
        func species(_ name: String) async throws -> TaxonID {
            try #require(try await client.send(SearchQueryRequest(query: name, rank: .species)).results.first?.id)
        }
        let lion = try await species("Panthera leo"), tiger = try await species("Panthera tigris"), koala = try await species("Phascolarctos cinereus")
        let coli = try await species("Escherichia coli")
        _ = try await client.send(FavoritesAddRequest(taxonId: lion))
        let calls: [any RPCRequest] = [
            DatabaseInfoRequest(), DatabaseLanguagesRequest(), TaxonGetRequest(id: lion), TaxonRootsRequest(),
            TaxonChildrenRequest(id: lion), TaxonAncestorsRequest(id: lion), TaxonNamesRequest(id: lion),
            TaxonTraitsRequest(id: lion), TaxonReferencesRequest(id: lion), TaxonDetailRequest(id: lion),
            SearchQueryRequest(query: "lions"), SearchQueryRequest(query: "Pantera leo"), SearchAutocompleteRequest(prefix: "lio"),
            CompareTaxaRequest(a: lion, b: tiger), CompareTaxaRequest(a: lion, b: coli), CompareLCARequest(pairs: [[lion, tiger]]),
            CompareRelativesRequest(id: lion), CompareStatsRequest(),
            FavoritesContainsRequest(taxonId: lion), FavoritesContainsRequest(taxonIds: [lion]),
            FavoritesCountRequest(), FavoritesStatusRequest(), FavoritesStorageBytesRequest(), FavoritesListRequest(),
            FavoritesExportRequest(), FavoritesToggleRequest(taxonId: tiger), AboutRequest(), StorageReportRequest(),
            DiagnosticsStatusRequest(), MediaPacksRequest(), MediaImageRequest(taxonId: lion),
            DatabaseCancelImportRequest(), MediaCancelImportRequest(),
            TaxonTraitsRequest(id: lion, lang: "de"),
            TaxonDetailRequest(id: lion, lang: "fr", include: [.image, .favorite, .relatives]),
            MediaImageRequest(taxonIds: [lion, koala], size: .thumbnail),
            TaxonDetailRequest(id: koala, include: [.image], imageSize: .page),
            SearchQueryRequest(query: "Koala"),
        ]
        for request in calls {
            let name = type(of: request).method
            let result = try await client.send(method: name, params: try JSONEncoding.value(of: request))
            let method = try #require(document["methods"]?.arrayValue?.first { $0["name"]?.stringValue == name })
            let undocumented = SchemaKeys.undocumented(in: result, schema: method["result"]?["schema"] ?? .object([]), document: document)
            #expect(undocumented.isEmpty, "\(name) answers keys its result schema does not document: \(undocumented)")
        }
        await client.shutdown()
        await engine.close()
    }
}

/// Finds the object keys of a value that a JSON Schema does not document.
enum SchemaKeys {
    static func undocumented(in value: JSONValue, schema: JSONValue, document: JSONValue, path: String = "") -> [String] {
        if let ref = schema["$ref"]?.stringValue, let name = ref.split(separator: "/").last {
            return undocumented(in: value, schema: document["components"]?["schemas"]?[String(name)] ?? .object([]), document: document, path: path)
        }
        for combinator in ["oneOf", "anyOf"] {
            if let branches = schema[combinator]?.arrayValue {
                let results = branches.map { undocumented(in: value, schema: $0, document: document, path: path) }
                return results.min { $0.count < $1.count } ?? []
            }
        }
        var found: [String] = []
        if let parts = schema["allOf"]?.arrayValue {
            // Keys documented by any part are documented.
            guard case .object(let members) = value else { return [] }
            var documented: Set<String> = []
            for part in parts { documented.formUnion(properties(of: part, document: document).keys) }
            return members.map(\.key).filter { !documented.contains($0) }.map { path + "." + $0 }
        }
        switch value {
        case .object(let members):
            let properties = properties(of: schema, document: document)
            let additional = schema["additionalProperties"]
            for member in members {
                if let property = properties[member.key] {
                    found += undocumented(in: member.value, schema: property, document: document, path: path + "." + member.key)
                } else if let additional, additional != .bool(false) {
                    found += undocumented(in: member.value, schema: additional, document: document, path: path + "." + member.key)
                } else if !properties.isEmpty || schema["type"] == "object" {
                    found.append(path + "." + member.key)
                }
            }
        case .array(let items):
            if let itemSchema = schema["items"] {
                for item in items.prefix(20) { found += undocumented(in: item, schema: itemSchema, document: document, path: path + "[]") }
            }
        default:
            break
        }
        return found
    }

    private static func properties(of schema: JSONValue, document: JSONValue) -> [String: JSONValue] {
        if let ref = schema["$ref"]?.stringValue, let name = ref.split(separator: "/").last {
            return properties(of: document["components"]?["schemas"]?[String(name)] ?? .object([]), document: document)
        }
        guard case .object(let members)? = schema["properties"] else { return [:] }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    }
}

