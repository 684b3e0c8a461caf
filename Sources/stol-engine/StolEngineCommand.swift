import ArgumentParser
import STOLEngine

@main
struct StolEngineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stol-engine",
        abstract: "The offline engine behind Species: Tree of Life, speaking JSON-RPC 2.0 on stdio.",
        discussion: "With no subcommand the engine serves newline-delimited JSON-RPC 2.0 on stdin/stdout. See protocol/README.md.",
        version: EngineInfo.version,
        subcommands: [Serve.self, MCP.self, BuildDatabase.self, Keygen.self, Pack.self, PackMedia.self, Verify.self, Benchmark.self],
        defaultSubcommand: Serve.self
    )

    /// Sets up SQLite for the process before any command opens a database, then runs the command.
    static func main() async {
        SQLiteLibrary.turnOffMemoryStatistics()
        await main(nil)
    }
}
