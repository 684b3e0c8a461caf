import Foundation
import STOLJSON
import STOLMCP
import STOLProtocol
import STOLRPC
import STOLTestSupport
import Testing

/// Numbers out of range and language tags as an operating system hands them over, through the
/// real binary on the embedded database. The ranges come from `protocol/openrpc.json`, so the
/// document and the engine cannot disagree.
@Suite(.serialized) struct ParamRangeTests {
    static let lion: Int64 = 4_100_088_141_433_187
    static let tiger: Int64 = 2_978_643_104_371_116

    /// A valid value for each required param of the bounded methods.
    static let samples: [String: JSONValue] = [
        "id": .integer(lion), "a": .integer(lion), "b": .integer(tiger), "taxonId": .integer(lion), "query": "lion", "prefix": "li",
        "ids": [.integer(lion)], "pairs": [[.integer(lion), .integer(tiger)]],
    ]

    struct Bound: CustomStringConvertible {
        var method: String
        var path: [String]  // member, then "*" per array level
        var minimum: Int64
        var maximum: Int64
        var description: String { "\(method) \(path.joined(separator: "."))" }
    }

    /// Every integer param of `openrpc.json` with a `minimum` and a `maximum`, nested ones too.
    static func bounds() throws -> [Bound] {
        let document = try JSONParser.parse([UInt8](try Data(contentsOf: EngineBinary.repositoryRoot.appendingPathComponent("protocol/openrpc.json"))))
        var out: [Bound] = []
        func visit(_ method: String, _ path: [String], _ schema: JSONValue) {
            if let items = schema["items"] { visit(method, path + ["*"], items) }
            if let minimum = schema["minimum"]?.int64Value, let maximum = schema["maximum"]?.int64Value, schema["type"] == "integer" {
                out.append(Bound(method: method, path: path, minimum: minimum, maximum: maximum))
            }
        }
        for method in document["methods"]?.arrayValue ?? [] {
            for param in method["params"]?.arrayValue ?? [] {
                visit(method["name"]!.stringValue!, [param["name"]!.stringValue!], param["schema"] ?? .null)
            }
        }
        return out
    }

    /// Params for `bound` holding `value` where it leads (the first element of each array), and a
    /// valid value for every other required param; plus the field an error must name.
    static func params(_ bound: Bound, _ value: JSONValue) -> (params: JSONValue, field: String) {
        func place(_ rest: ArraySlice<String>, sample: JSONValue?) -> JSONValue {
            guard rest.first == "*" else { return value }
            var elements = sample?.arrayValue ?? [value]
            elements[elements.count - 1] = place(rest.dropFirst(), sample: elements.last)
            return .array(elements)
        }
        var members: [(key: String, value: JSONValue)] = []
        let name = bound.path[0]
        for (key, sample) in samples where key != name && Self.required(bound.method).contains(key) { members.append((key, sample)) }
        members.append((name, place(bound.path.dropFirst()[...], sample: samples[name])))
        var field = [name]
        var sample = samples[name]
        for step in bound.path.dropFirst() where step == "*" {
            let count = sample?.arrayValue?.count ?? 1
            field.append(String(count - 1))
            sample = sample?.arrayValue?.last
        }
        return (.object(members), field.joined(separator: "."))
    }

    static func required(_ method: String) -> Set<String> {
        switch method {
        case "compare/taxa": ["a", "b"]
        case "search/autocomplete": ["prefix"]
        case "search/query": ["query"]
        case "compare/lca": ["pairs"]
        case "taxon/lineages": ["ids"]
        case let m where m.hasPrefix("taxon/") || m == "compare/relatives": ["id"]
        default: []
        }
    }

    /// Below the minimum, above the maximum and far beyond any integer: -32602 naming the field
    /// and the documented range; the bounds themselves pass the check.
    @Test func everyDocumentedRangeIsTheEnginesRange() async throws {
        let bounds = try Self.bounds()
        #expect(bounds.count >= 25, "\(bounds)")
        #expect(bounds.contains { $0.method == "compare/lca" && $0.path == ["pairs", "*", "*"] })
        let engine = try EngineProcess()
        for bound in bounds {
            let contract = try #require(ProtocolCatalog.requests.first { $0.method == bound.method }, "\(bound.method) has no contract")
            let detail = "is out of range: must be an integer from \(bound.minimum) to \(bound.maximum)"
            for outside in [JSONValue.integer(bound.minimum - 1), .integer(bound.maximum + 1), .number("12345678901234567890"), .number("1e400")] {
                let (params, field) = Self.params(bound, outside)
                let error = await engine.call(contract, params: params)?["error"]
                #expect(error?["code"] == -32602, "\(bound) = \(outside)")
                #expect(error?["data"]?["field"] == JSONValue.string(field), "\(bound) = \(outside): \(String(describing: error))")
                #expect(error?["data"]?["detail"] == JSONValue.string(detail), "\(bound) = \(outside): \(String(describing: error))")
            }
            for inside in [bound.minimum, bound.maximum] {
                let (params, _) = Self.params(bound, .integer(inside))
                let error = await engine.call(contract, params: params)?["error"]
                #expect(error?["data"]?["detail"] != JSONValue.string(detail), "\(bound) = \(inside) is in range: \(String(describing: error))")
            }
            // A fraction is no integer, whatever its size.
            let (params, field) = Self.params(bound, .number("1.5"))
            let error = await engine.call(contract, params: params)?["error"]
            #expect(error?["data"]?["field"] == JSONValue.string(field) && error?["data"]?["detail"] == "must be an integer", "\(bound)")
        }
        // The issue's cases, word for word.
        let id = await engine.call(TaxonGetRequest.self, params: .object(["id": .number("9007199254740993")]))?["error"]?["data"]
        #expect(id?["detail"] == "is out of range: must be an integer from 1 to 9007199254740991")
        let within = await engine.call(SearchQueryRequest.self, params: .object(["query": "lion", "within": .number("12345678901234567890")]))?["error"]?["data"]
        #expect(within?["field"] == "within" && within?["detail"] == "is out of range: must be an integer from 1 to 9007199254740991")
        // 3.0 and 3e0 are integers written differently.
        let mammals: Int64 = 4_500_444_400_066_282
        let three = await engine.call(TaxonChildrenRequest.self, params: .object(["id": .integer(mammals), "limit": .number("3e0")]))?["result"]
        #expect(three?["children"]?.arrayValue?.count == 3)
    }

    /// `EN`, `de_DE`, `de-de`, `de_DE.UTF-8` are the forms an OS hands a GUI: each answers as `en`
    /// or `de` would, and says which language it used.
    @Test func languageTagsAsTheSystemGivesThem() async throws {
        let engine = try EngineProcess()
        let german = await engine.result(TaxonGetRequest(id: Self.lion, lang: "de"))
        #expect(german?["preferredCommonName"] == "Löwe" && german?["preferredCommonNameLang"] == "de")
        for tag in ["de_DE", "de-DE", "DE", "de-de", "DE_de", "de_DE.UTF-8", "de_AT@euro", " de "] {
            #expect(await engine.result(TaxonGetRequest(id: Self.lion, lang: tag)) == german, "\(tag)")
            let detail = await engine.result(TaxonDetailRequest(id: Self.lion, lang: tag))
            #expect(detail?["preferredCommonNameLang"] == "de", "\(tag)")
            let found = await engine.result(SearchQueryRequest(query: "Löwe", lang: tag, limit: 1))
            #expect(found?["results"]?.arrayValue?.first?["preferredCommonNameLang"] == "de", "\(tag)")
            let names = await engine.result(TaxonNamesRequest(id: Self.lion, lang: tag))?["names"]?.arrayValue ?? []
            #expect(names.contains { $0["name"] == "Löwe" && $0["lang"] == "de" }, "\(tag): a regional tag reads its language's names")
            let export = await engine.result(FavoritesExportRequest(lang: tag))
            #expect(export?["lang"] == "de" && export?["text"]?.stringValue?.hasPrefix("Meine Lieblingsarten") == true, "\(tag)")
            let compared = await engine.result(CompareTaxaRequest(a: Self.lion, b: Self.tiger, lang: tag))
            #expect(compared?["a"]?["preferredCommonName"] == "Löwe", "\(tag)")
        }
        for tag in ["EN", "en_GB", "C", "POSIX", "C.UTF-8"] {
            let english = await engine.result(TaxonGetRequest(id: Self.lion, lang: tag))
            #expect(english?["preferredCommonName"] == "Lion" && english?["preferredCommonNameLang"] == "en", "\(tag)")
        }
        // A language the database has no names in falls back to English, and says so.
        let japanese = await engine.result(TaxonGetRequest(id: Self.lion, lang: "ja_JP"))
        #expect(japanese?["preferredCommonNameLang"] == "en")
        let export = await engine.result(FavoritesExportRequest(lang: "ja"))
        #expect(export?["lang"] == "en")
        for bad in ["english", "e", "de__DE", "de-", "", "d3"] {
            let error = await engine.call(TaxonGetRequest(id: Self.lion, lang: bad))?["error"]?["data"]
            #expect(error?["field"] == "lang" && error?["detail"] == "must be a language tag such as en, es, pt-BR or de_DE", "\(bad)")
        }
        // MCP mode takes them the same way.
        let mcp = try EngineProcess(["mcp"])
        let answer = await mcp.result(MCPServer.CallToolRequest(name: "get_taxon", arguments: .object(["taxon": .integer(Self.lion), "language": "de_DE"])))
        #expect(answer?["structuredContent"]?["taxon"]?["preferredCommonName"] == "Löwe")
        let range = await mcp.result(MCPServer.CallToolRequest(name: "search_taxa", arguments: .object(["query": "lion", "limit": .number("12345678901234567890")])))
        #expect(range?["isError"] == true)
        #expect(range?["content"]?.arrayValue?.first?["text"]?.stringValue?.contains("limit is out of range: must be an integer from 1 to 50") == true, "\(String(describing: range))")
    }
}
