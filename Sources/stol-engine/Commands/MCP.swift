import ArgumentParser
import STOLEngine
import STOLMCP

/// `stol-engine mcp`: the Model Context Protocol over stdin/stdout, for AI assistants. The same
/// engine, database and data directory as serve mode; only read-only taxonomy tools.
struct MCP: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the Model Context Protocol on stdin/stdout: offline taxonomy tools for AI assistants.",
        discussion: "Register it with an MCP client as {\"command\": \"stol-engine\", \"args\": [\"mcp\"]}. See protocol/MCP.md.")

    @OptionGroup var common: CommonOptions
    @OptionGroup var engineOptions: EngineOptions

    @Flag(help: .hidden)
    var testTools = false

    func run() async throws {
        try await StdioSession.run(
            common: common, engineOptions: engineOptions, mode: "MCP",
            methods: { engine in try MCPServer.methods(engine: engine, version: EngineInfo.version, testTools: testTools) },
            options: { MCPServer.options(base: $0) })
    }
}
