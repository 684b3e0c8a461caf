import Foundation
import STOLRPC
import STOLJSON

/// The taxonomy tools: each one calls the engine's own methods, through their contracts, within
/// the tool call's request (so cancellation and progress reach them).
enum MCPTools {
    /// Every tool, in the order `tools/list` gives them. `document` is the engine's OpenRPC
    /// document, whose result schemas become the output schemas.
    static func all(table: MethodTable, engine: Engine, document: JSONValue) -> [MCPTool] {
        [
            searchTaxa(table, document), getTaxon(table, document), listChildren(table, document), getLineage(table, document),
            compareTaxa(table, document), closestRelatives(table, document), databaseInfo(engine),
        ]
    }

    // MARK: Schemas of arguments

    static let taxonArgument: JSONValue = .object([
        "type": .array(["integer", "string"]),
        "description": "A taxon id, or a scientific or common name that names exactly one taxon (\"Panthera leo\", \"lion\").",
    ])
    static let languageArgument: JSONValue = .object([
        "type": "string", "description": "Language of common names, a BCP-47 tag such as en, es, fr, de; English by default.",
    ])

    static func object(_ properties: KeyValuePairs<String, JSONValue>, required: [String]) -> JSONValue {
        .object([
            "type": "object", "properties": .object(properties.map { (key: $0.key, value: $0.value) }),
            "required": .array(required.map { .string($0) }), "additionalProperties": false,
        ])
    }

    // MARK: Tools

    static func searchTaxa(_ table: MethodTable, _ document: JSONValue) -> MCPTool {
        MCPTool(
            name: "search_taxa", title: "Search taxa",
            description: "Find taxa by scientific name, common name (in many languages) or synonym, typos and plurals allowed. "
                + "Results come best match first, each with its id for the other tools.",
            inputSchema: object([
                "query": .object(["type": "string", "minLength": 1, "maxLength": 200, "description": "What to look for, e.g. \"lions\" or \"Panthera\"."]),
                "rank": .object(["type": "string", "enum": .array(Rank.allCases.map { .string($0.rawValue) }), "description": "Only taxa of this rank."]),
                "conservation": .object([
                    "type": "string", "enum": .array((ConservationStatus.allCases.map(\.rawValue) + ["threatened"]).map { .string($0) }),
                    "description": "Only taxa with this IUCN status; threatened means VU, EN or CR.",
                ]),
                "language": languageArgument,
                "limit": .object(["type": "integer", "minimum": 1, "maximum": 50, "default": 10]),
            ], required: ["query"]),
            outputSchema: MCPOutputSchema.result(of: SearchMethods.Query.name, in: document)
        ) { arguments, context in
            var params = SearchMethods.QueryParams()
            params.query = try arguments.string("query", required: true)
            params.rank = try arguments.string("rank")
            params.conservation = try arguments.string("conservation").map { SearchMethods.ConservationParam([$0]) }
            params.lang = try arguments.language()
            params.limit = try arguments.integer("limit", default: 10, range: 1...50)
            let found = try await table.call(SearchMethods.Query.self, params, context: context)
            let results = found["results"]?.arrayValue ?? []
            let total = found["total"]?.int64Value ?? Int64(results.count)
            let text = results.isEmpty
                ? "No taxon matches \"\(params.query ?? "")\"."
                : "\(results.count) of \(total) taxa matching \"\(params.query ?? "")\": " + results.prefix(10).map(Summary.line).joined(separator: "; ")
            return MCPToolOutput(structured: found, text: text)
        }
    }

    static func getTaxon(_ table: MethodTable, _ document: JSONValue) -> MCPTool {
        MCPTool(
            name: "get_taxon", title: "Get a taxon",
            description: "Everything the database knows about one taxon: its rank, authority, conservation status, lineage from the root, "
                + "common names by language, synonyms, traits and references.",
            inputSchema: object(["taxon": taxonArgument, "language": languageArgument], required: ["taxon"]),
            outputSchema: MCPOutputSchema.result(of: BrowseMethods.Detail.name, in: document)
        ) { arguments, context in
            let language = try arguments.language()
            let id = try await arguments.taxon("taxon").resolve(in: table, context: context, language: language)
            let detail = try await table.call(BrowseMethods.Detail.self, .init(id: id, lang: language), context: context)
            return MCPToolOutput(structured: detail, text: Summary.detail(detail))
        }
    }

    static func listChildren(_ table: MethodTable, _ document: JSONValue) -> MCPTool {
        MCPTool(
            name: "list_children", title: "List children",
            description: "The direct children of a taxon (the species of a genus, the orders of a class…), sorted by scientific name, "
                + "one page at a time: pass nextCursor back as cursor for the next page.",
            inputSchema: object([
                "taxon": taxonArgument, "language": languageArgument,
                "limit": .object(["type": "integer", "minimum": 1, "maximum": 200, "default": 50]),
                "cursor": .object(["type": "string", "description": "nextCursor from the previous page."]),
            ], required: ["taxon"]),
            outputSchema: MCPOutputSchema.result(of: BrowseMethods.Children.name, in: document)
        ) { arguments, context in
            let language = try arguments.language()
            let id = try await arguments.taxon("taxon").resolve(in: table, context: context, language: language)
            var params = BrowseMethods.ChildrenParams(id: id)
            params.limit = try arguments.integer("limit", default: 50, range: 1...200)
            params.cursor = try arguments.string("cursor", maxLength: 1000)
            params.lang = language
            let page = try await table.call(BrowseMethods.Children.self, params, context: context)
            let children = page["children"]?.arrayValue ?? []
            var text = children.isEmpty ? "No children." : "\(children.count) children: " + children.map(Summary.line).joined(separator: "; ")
            if page["nextCursor"] != nil { text += " (more follow: pass nextCursor)" }
            return MCPToolOutput(structured: page, text: text)
        }
    }

    static func getLineage(_ table: MethodTable, _ document: JSONValue) -> MCPTool {
        MCPTool(
            name: "get_lineage", title: "Get a lineage",
            description: "The ancestors of a taxon, from the root of the tree down to its parent.",
            inputSchema: object(["taxon": taxonArgument, "language": languageArgument], required: ["taxon"]),
            outputSchema: MCPOutputSchema.result(of: BrowseMethods.ListAncestors.name, in: document)
        ) { arguments, context in
            let language = try arguments.language()
            let id = try await arguments.taxon("taxon").resolve(in: table, context: context, language: language)
            let lineage = try await table.call(BrowseMethods.ListAncestors.self, .init(id: id, lang: language), context: context)
            let taxon = try await table.call(BrowseMethods.Get.self, .init(id: id, lang: language), context: context)
            let path = (lineage["ancestors"]?.arrayValue ?? []) + [taxon]
            return MCPToolOutput(structured: lineage, text: path.map(Summary.name).joined(separator: " › "))
        }
    }

    static func compareTaxa(_ table: MethodTable, _ document: JSONValue) -> MCPTool {
        MCPTool(
            name: "compare_taxa", title: "Compare two taxa",
            description: "How two taxa are related: their lowest common ancestor, the taxonomic distance between them, "
                + "both paths up to that ancestor, the clade they share, and how similar their traits are.",
            inputSchema: object(["a": taxonArgument, "b": taxonArgument, "language": languageArgument], required: ["a", "b"]),
            outputSchema: MCPOutputSchema.result(of: CompareMethods.Taxa.name, in: document)
        ) { arguments, context in
            let language = try arguments.language()
            let a = try await arguments.taxon("a").resolve(in: table, context: context, language: language)
            let b = try await arguments.taxon("b").resolve(in: table, context: context, language: language)
            let comparison = try await table.call(CompareMethods.Taxa.self, .init(a: a, b: b, lang: language), context: context)
            var text = "\(Summary.name(comparison["a"] ?? .null)) and \(Summary.name(comparison["b"] ?? .null)): "
            text += "lowest common ancestor \(Summary.line(comparison["lca"] ?? .null)), "
            text += "taxonomic distance \(comparison["taxonomicDistance"]?.int64Value ?? 0)."
            if let shared = comparison["sharedCladeDescription"]?.stringValue { text += " " + shared + "." }
            return MCPToolOutput(structured: comparison, text: text)
        }
    }

    static func closestRelatives(_ table: MethodTable, _ document: JSONValue) -> MCPTool {
        MCPTool(
            name: "closest_relatives", title: "Closest relatives",
            description: "The species most closely related to a species: those sharing its deepest clade first.",
            inputSchema: object([
                "taxon": taxonArgument, "language": languageArgument,
                "count": .object(["type": "integer", "minimum": 1, "maximum": 50, "default": 10]),
            ], required: ["taxon"]),
            outputSchema: MCPOutputSchema.result(of: CompareMethods.Relatives.name, in: document)
        ) { arguments, context in
            let language = try arguments.language()
            let id = try await arguments.taxon("taxon").resolve(in: table, context: context, language: language)
            var params = CompareMethods.RelativesParams(id: id)
            params.n = try arguments.integer("count", default: 10, range: 1...50)
            params.lang = language
            context.progress?.begin(title: "Finding closest relatives")
            let relatives = try await table.call(CompareMethods.Relatives.self, params, context: context)
            context.progress?.end()
            let list = relatives["relatives"]?.arrayValue ?? []
            let text = list.isEmpty
                ? "No relatives found."
                : "Closest relatives: " + list.map { "\(Summary.line($0["taxon"] ?? .null)), sharing \(Summary.name($0["lca"] ?? .null))" }.joined(separator: "; ")
            return MCPToolOutput(structured: relatives, text: text)
        }
    }

    static func databaseInfo(_ engine: Engine) -> MCPTool {
        let dataset: JSONValue = .object([
            "type": "object",
            "properties": .object(["name", "version", "license", "attribution", "buildDate"].map { (key: $0, value: .object(["type": "string"])) }),
        ])
        return MCPTool(
            name: "database_info", title: "What the database holds",
            description: "The active taxonomy database: the dataset's name and version, how many taxa it holds, its license and attribution.",
            inputSchema: object([:], required: []),
            outputSchema: .object([
                "type": "object",
                "properties": .object([
                    "source": .object(["type": "string", "enum": ["bundled", "reference"]]),
                    "schemaVersion": .object(["type": "integer"]), "taxaCount": .object(["type": "integer"]), "dataset": dataset,
                ]),
                "required": ["source", "schemaVersion", "taxaCount", "dataset"],
            ])
        ) { _, _ in
            let db = await engine.databases.current()
            let info = db.datasetInfo
            var members: [(key: String, value: JSONValue)] = []
            for (key, column) in [("name", "name"), ("version", "version"), ("license", "license"), ("attribution", "attribution"), ("buildDate", "build_date")] {
                if let value = info[column] { members.append((key, .string(value))) }
            }
            let structured: JSONValue = .object([
                "source": .string(db.source.rawValue), "schemaVersion": .integer(db.schemaVersion), "taxaCount": .integer(db.taxaCount),
                "dataset": .object(members),
            ])
            var text = "\(info["name"] ?? "Unnamed dataset")\(info["version"].map { " \($0)" } ?? ""): \(db.taxaCount) taxa (\(db.source.rawValue) database)."
            if let license = info["license"] { text += " License: \(license)." }
            if let attribution = info["attribution"] { text += " \(attribution)" }
            return MCPToolOutput(structured: structured, text: text)
        }
    }
}

/// Short texts for people, from the engine's JSON.
enum Summary {
    /// `Panthera leo "Lion"`.
    static func name(_ taxon: JSONValue) -> String {
        let scientific = taxon["disambiguation"]?["display"]?.stringValue ?? taxon["scientificName"]?.stringValue ?? "?"
        guard let common = taxon["preferredCommonName"]?.stringValue else { return scientific }
        return "\(scientific) \"\(common)\""
    }

    /// `Panthera leo "Lion" (species, id 5)`.
    static func line(_ taxon: JSONValue) -> String {
        var parts: [String] = []
        if let rank = taxon["rank"]?.stringValue { parts.append(rank) }
        if let id = taxon["id"]?.int64Value { parts.append("id \(id)") }
        if let status = taxon["conservationStatus"]?.stringValue { parts.append("IUCN \(status)") }
        return name(taxon) + (parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")")
    }

    static func detail(_ detail: JSONValue) -> String {
        let taxon = detail["taxon"] ?? .null
        var text = line(taxon)
        if let author = taxon["author"]?.stringValue { text += ", \(author)" }
        text += "."
        let lineage = detail["lineage"]?.arrayValue ?? []
        if !lineage.isEmpty { text += " Lineage: " + lineage.map { $0["scientificName"]?.stringValue ?? "?" }.joined(separator: " › ") + "." }
        if case .object(let names)? = detail["names"], !names.isEmpty {
            text += " Common names in \(names.count) language\(names.count == 1 ? "" : "s")."
        }
        let traits = detail["traits"]?.arrayValue ?? []
        if !traits.isEmpty {
            text += " Traits: " + traits.prefix(8).map { "\($0["key"]?.stringValue ?? "?"): \($0["value"]?.stringValue ?? "?")" }.joined(separator: "; ") + "."
        }
        return text
    }
}
