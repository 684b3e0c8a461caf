import Foundation
import STOLEngine
import STOLJSON
import STOLProtocol
import STOLRPC

/// The taxonomy tools: each one calls the engine's own methods, through their contracts, within
/// the tool call's request (so cancellation and progress reach them).
enum MCPTools {
    /// Every tool, in the order `tools/list` gives them. `document` is the engine's OpenRPC
    /// document, whose result schemas become the output schemas.
    static func all(table: MethodTable, engine: Engine, document: JSONValue) -> [MCPTool] {
        [
            searchTaxa(table, document), getTaxon(table, document), listChildren(table, document), getLineage(table, document),
            compareTaxa(table, document), closestRelatives(table, document), databaseInfo(table),
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
            outputSchema: MCPOutputSchema.result(of: SearchQueryRequest.method, in: document)
        ) { arguments, context in
            let query = try arguments.string("query", required: true) ?? ""
            let request = SearchQueryRequest(
                query: query, rank: try arguments.named(Rank.self, "rank"), conservation: try arguments.string("conservation").map { ConservationFilter([$0]) },
                lang: try arguments.language(), limit: try arguments.integer("limit", default: 10, range: 1...50))
            let found = try await table.call(request, context: context)
            let quoted = ToolText.quoted(query)
            let text = found.results.isEmpty
                ? "No taxon matches \(quoted)."
                : "\(found.results.count) of \(found.total) taxa matching \(quoted): " + found.results.prefix(10).map(Summary.line).joined(separator: "; ")
            return try MCPToolOutput(found, text: text)
        }
    }

    static func getTaxon(_ table: MethodTable, _ document: JSONValue) -> MCPTool {
        MCPTool(
            name: "get_taxon", title: "Get a taxon",
            description: "Everything the database knows about one taxon: its rank, authority, conservation status, lineage from the root, "
                + "common names by language, synonyms, traits and references.",
            inputSchema: object(["taxon": taxonArgument, "language": languageArgument], required: ["taxon"]),
            outputSchema: MCPOutputSchema.result(of: TaxonDetailRequest.method, in: document)
        ) { arguments, context in
            let language = try arguments.language()
            let id = try await arguments.taxon("taxon").resolve(in: table, context: context, language: language)
            let page = try await table.call(TaxonDetailRequest(id: id, lang: language), context: context)
            return try MCPToolOutput(page, text: Summary.detail(page.detail))
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
            outputSchema: MCPOutputSchema.result(of: TaxonChildrenRequest.method, in: document)
        ) { arguments, context in
            let language = try arguments.language()
            let id = try await arguments.taxon("taxon").resolve(in: table, context: context, language: language)
            let request = TaxonChildrenRequest(
                id: id, limit: try arguments.integer("limit", default: 50, range: 1...200), cursor: try arguments.string("cursor", maxLength: 1000), lang: language)
            let page = try await table.call(request, context: context)
            var text = page.children.isEmpty ? "No children." : "\(page.children.count) children: " + page.children.map(Summary.line).joined(separator: "; ")
            if page.nextCursor != nil { text += " (more follow: pass nextCursor)" }
            return try MCPToolOutput(page, text: text)
        }
    }

    static func getLineage(_ table: MethodTable, _ document: JSONValue) -> MCPTool {
        MCPTool(
            name: "get_lineage", title: "Get a lineage",
            description: "The ancestors of a taxon, from the root of the tree down to its parent.",
            inputSchema: object(["taxon": taxonArgument, "language": languageArgument], required: ["taxon"]),
            outputSchema: MCPOutputSchema.result(of: TaxonAncestorsRequest.method, in: document)
        ) { arguments, context in
            let language = try arguments.language()
            let id = try await arguments.taxon("taxon").resolve(in: table, context: context, language: language)
            let lineage = try await table.call(TaxonAncestorsRequest(id: id, lang: language), context: context)
            let taxon = try await table.call(TaxonGetRequest(id: id, lang: language), context: context)
            return try MCPToolOutput(lineage, text: (lineage.ancestors + [taxon]).map(Summary.name).joined(separator: " › "))
        }
    }

    static func compareTaxa(_ table: MethodTable, _ document: JSONValue) -> MCPTool {
        MCPTool(
            name: "compare_taxa", title: "Compare two taxa",
            description: "How two taxa are related: their lowest common ancestor, the taxonomic distance between them, "
                + "both paths up to that ancestor, the clade they share, and how similar their traits are. Taxa in different "
                + "trees (a lion and E. coli) meet at the root of the tree of life, Biota (Life), a pseudo-taxon with id 0.",
            inputSchema: object(["a": taxonArgument, "b": taxonArgument, "language": languageArgument], required: ["a", "b"]),
            outputSchema: MCPOutputSchema.result(of: CompareTaxaRequest.method, in: document)
        ) { arguments, context in
            let language = try arguments.language()
            let a = try await arguments.taxon("a").resolve(in: table, context: context, language: language)
            let b = try await arguments.taxon("b").resolve(in: table, context: context, language: language)
            let comparison = try await table.call(CompareTaxaRequest(a: a, b: b, lang: language), context: context)
            var text = "\(Summary.name(comparison.a)) and \(Summary.name(comparison.b)): "
            if comparison.lca.isRootOfLife {
                // Different trees of the database: they meet only at the root of all life.
                text += "no common ancestor in the database; they meet at the root of the tree of life, \(Summary.name(comparison.lca)), "
            } else {
                text += "lowest common ancestor \(Summary.line(comparison.lca)), "
            }
            text += "taxonomic distance \(comparison.taxonomicDistance)."
            text += " " + Summary.sharedClade(comparison) + "."
            return try MCPToolOutput(comparison, text: text)
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
            outputSchema: MCPOutputSchema.result(of: CompareRelativesRequest.method, in: document)
        ) { arguments, context in
            let language = try arguments.language()
            let id = try await arguments.taxon("taxon").resolve(in: table, context: context, language: language)
            let request = CompareRelativesRequest(id: id, n: try arguments.integer("count", default: 10, range: 1...50), lang: language)
            context.progress?.begin(title: "Finding closest relatives")
            let found = try await table.call(request, context: context)
            context.progress?.end()
            let text = found.relatives.isEmpty
                ? "No relatives found."
                : "Closest relatives: " + found.relatives.map { "\(Summary.line($0.taxon)), sharing \(Summary.name($0.lca))" }.joined(separator: "; ")
            return try MCPToolOutput(found, text: text)
        }
    }

    /// The part of `database/info` the tool gives: what the database holds, without this run's
    /// recoveries or damage (they concern the app, not the assistant).
    struct DatabaseSummary: Encodable {
        var source: DatabaseSource
        var schemaVersion: Int
        var taxaCount: Int
        var dataset: DatabaseInfo.Dataset
    }

    static func databaseInfo(_ table: MethodTable) -> MCPTool {
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
        ) { _, context in
            let info = try await table.call(DatabaseInfoRequest(), context: context)
            var text = "Dataset \(ToolText.quoted(info.dataset.name ?? "Unnamed dataset"))"
            if let version = info.dataset.version { text += ", version \(ToolText.quoted(version))" }
            text += ": \(info.taxaCount) taxa (\(info.source.rawValue) database)."
            if let license = info.dataset.license { text += " License: \(ToolText.quoted(license))." }
            if let attribution = info.dataset.attribution { text += " Attribution: \(ToolText.quoted(attribution))." }
            let summary = DatabaseSummary(source: info.source, schemaVersion: info.schemaVersion, taxaCount: info.taxaCount, dataset: info.dataset)
            return try MCPToolOutput(summary, text: text)
        }
    }
}
