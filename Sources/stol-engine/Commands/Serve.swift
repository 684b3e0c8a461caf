import ArgumentParser
import STOLEngine

/// `stol-engine serve`: the default mode, JSON-RPC 2.0 over stdin/stdout.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve JSON-RPC 2.0 on stdin/stdout (the default).")

    @OptionGroup var common: CommonOptions
    @OptionGroup var engineOptions: EngineOptions

    @Flag(help: "Also serve the JSON-RPC specification's example methods and the test/ methods.")
    var conformanceMethods = false

    func run() async throws {
        try await StdioSession.run(
            common: common, engineOptions: engineOptions, mode: "JSON-RPC 2.0",
            methods: { engine in
                var methods = engine.methods()
                if conformanceMethods { methods.merge(.conformanceMethods()) }
                return methods
            },
            options: { $0 },
            forwardsEngineEvents: true)
    }
}
