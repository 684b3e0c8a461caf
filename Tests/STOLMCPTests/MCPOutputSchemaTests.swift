import Foundation
import Logging
import STOLEngine
import STOLJSON
import STOLTestSupport
import Testing

@testable import STOLMCP

/// The tools' output schemas, made from the OpenRPC document, are what MCP requires of one: an
/// object schema at the top (a result that is only a `$ref` to a component is that component),
/// with every reference resolvable inside the schema itself.
@Suite struct MCPOutputSchemaTests {
    @Test func everyToolsOutputSchemaIsASelfContainedObjectSchema() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stol-mcp-schema-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let engine = try Engine(configuration: .init(dataDirectory: directory), logger: InProcessClient.quiet)
        let document = try JSONParser.parse(try EngineInfo.openRPCDocument())
        let tools = MCPTools.all(table: engine.methods(), engine: engine, document: document)
        #expect(tools.count == 7)
        for tool in tools {
            let schema = tool.outputSchema
            #expect(schema["type"] == "object", "\(tool.name): \(schema["$ref"] ?? .null)")
            let text = String(decoding: JSONWriter.encode(schema), as: UTF8.self)
            #expect(!text.contains("#/components/"), "\(tool.name) points outside itself")
        }
    }

    @Test func aResultThatIsOnlyAReferenceIsThatComponent() {
        let document: JSONValue = .object([
            ("methods", .array([.object([("name", "m"), ("result", .object([("schema", .object([("$ref", "#/components/schemas/R")]))]))])])),
            ("components", .object([("schemas", .object([("R", .object([("type", "object"), ("properties", .object([("x", .object([("$ref", "#/components/schemas/X")]))]))])), ("X", .object([("type", "integer")]))]))])),
        ])
        let schema = MCPOutputSchema.result(of: "m", in: document)
        #expect(schema["type"] == "object")
        #expect(schema["properties"]?["x"]?["$ref"] == "#/$defs/X")
        #expect(schema["$defs"]?["X"]?["type"] == "integer")
    }
}
