import STOLJSON
import STOLRPC

/// One MCP tool: what `tools/list` says about it and what `tools/call` runs.
struct MCPTool: Sendable {
    /// The tool's name, such as `get_taxon`.
    var name: String
    var title: String
    var description: String
    /// JSON Schema of the `arguments` object.
    var inputSchema: JSONValue
    /// JSON Schema of `structuredContent`; self-contained (`$defs`, no outside `$ref`).
    var outputSchema: JSONValue
    /// Runs the tool on checked arguments.
    var run: @Sendable (MCPArguments, RequestContext) async throws -> MCPToolOutput

    /// The tool as `tools/list` lists it. Every tool only reads the local database.
    var listing: JSONValue {
        .object([
            "name": .string(name), "title": .string(title), "description": .string(description),
            "inputSchema": inputSchema, "outputSchema": outputSchema,
            "annotations": .object([
                "title": .string(title), "readOnlyHint": true, "destructiveHint": false,
                "idempotentHint": true, "openWorldHint": false,
            ]),
        ])
    }
}

/// What a tool answers: the structured result and one short text a person could read.
struct MCPToolOutput: Sendable {
    var structured: JSONValue
    var text: String

    init(structured: JSONValue, text: String) {
        self.structured = structured
        self.text = text
    }

    /// A typed answer as the structured result, in the JSON the engine's method answers with.
    init(_ result: some Encodable, text: String) throws {
        self.init(structured: try JSONEncoding.value(of: result), text: text)
    }

    /// The `tools/call` result.
    var result: JSONValue {
        .object(["content": .array([.object(["type": "text", "text": .string(text)])]), "structuredContent": structured, "isError": false])
    }
}

/// A tool call that could not be answered, told to the model as `isError: true` so it can
/// correct itself or ask the user: an unknown or ambiguous taxon name, a bad argument.
struct MCPToolError: Error, Sendable {
    var message: String
    /// Machine-readable detail, such as the candidates for an ambiguous name.
    var detail: JSONValue?

    var result: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("content", .array([.object(["type": "text", "text": .string(message)])]))]
        if let detail { members.append(("structuredContent", detail)) }
        members.append(("isError", true))
        return .object(members)
    }
}
