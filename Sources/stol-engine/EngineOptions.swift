#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Foundation
import Logging
import STOLEngine
import STOLRPC

/// The options of every mode that serves an engine over stdio (`serve`, `mcp`).
struct EngineOptions: ParsableArguments {
    @Option(help: "Where favourites, settings and imported databases live (default: $XDG_DATA_HOME/stol-engine).")
    var dataDir: String?

    @Option(help: "Largest accepted message, in bytes; longer lines are answered with an error and skipped.")
    var maxMessageBytes: Int = 64 << 20

    @Option(help: "Exit when the process with this id dies.")
    var parentPid: Int32?

    @Option(help: "Serve this taxonomy database in place of the embedded one (read-only).")
    var database: String?

    @Option(help: "Also trust .stol files signed by this Ed25519 public key (hex); repeatable. For tests and private distributions.")
    var trustedKey: [String] = []

    @Option(help: "Largest decompressed database database/import accepts, in bytes (default 4 GiB); set above 2 GiB, also the largest .stol file (default 2 GiB).")
    var maxImportBytes: Int64?

    @Option(help: "Above this many taxa, compare and lineages answer from SQL instead of an in-memory tree (default 5000000).")
    var lcaMaxNodes: Int?

    func validate() throws {
        guard maxMessageBytes >= 64 else { throw ValidationError("--max-message-bytes must be at least 64") }
        if let parentPid, parentPid <= 0 { throw ValidationError("--parent-pid must be a positive process id") }
        for key in trustedKey where (try? Signing.parsePublicKey(key)) == nil {
            throw ValidationError("--trusted-key must be 64 hex digits (an Ed25519 public key): \(key)")
        }
        if let maxImportBytes, maxImportBytes < 1 { throw ValidationError("--max-import-bytes must be positive") }
        if let lcaMaxNodes, lcaMaxNodes < 0 { throw ValidationError("--lca-max-nodes must not be negative") }
    }

    /// The engine's configuration from these options.
    func configuration(diagnostics: DiagnosticsLog, logger: Logger) throws -> Engine.Configuration {
        var configuration = Engine.Configuration(
            dataDirectory: dataDir.map { URL(fileURLWithPath: $0) } ?? DataDirectory.default(),
            bundledDatabase: database.map { URL(fileURLWithPath: $0) })
        configuration.diagnostics = diagnostics
        for hex in trustedKey {
            logger.warning("trusting .stol files signed by \(hex) (--trusted-key); only the release key is trusted by default")
            configuration.extraTrustedKeys.append(try Signing.parsePublicKey(hex))
        }
        if let lcaMaxNodes { configuration.lcaMaxNodes = lcaMaxNodes }
        if let maxImportBytes {
            // Lowered for tests of bombs; raised for a reference database the size of GBIF's (6.6 GB).
            configuration.importLimits.maxDecompressedBytes = maxImportBytes
            configuration.importLimits.maxFileBytes = max(configuration.importLimits.maxFileBytes, maxImportBytes)
        }
        return configuration
    }

    /// The server's identity and limits from these options.
    func serverOptions() throws -> RPCServer.Options {
        var options = RPCServer.Options()
        options.identity.serverName = EngineInfo.name
        options.identity.serverVersion = EngineInfo.version
        options.identity.protocolVersion = EngineInfo.protocolVersion
        options.identity.discoverDocument = try EngineInfo.openRPCDocument()
        options.limits.maxMessageBytes = maxMessageBytes
        options.parentProcessID = parentPid
        return options
    }
}

/// Serves one engine over stdin/stdout until the client leaves, for any protocol built on
/// `RPCServer`: claims stdout for protocol messages only, stops gracefully on signals, closes the
/// engine on every way out, and exits with the server's code.
enum StdioSession {
    static func run(
        common: CommonOptions, engineOptions: EngineOptions, mode: String,
        methods: (Engine) throws -> MethodTable, options: (RPCServer.Options) -> RPCServer.Options,
        forwardsEngineEvents: Bool = false
    ) async throws -> Never {
        // Keep the real stdout for the protocol and point fd 1 at stderr, so that nothing but
        // protocol messages can ever reach the client, not even a stray print.
        let protocolFD = StdoutGuard.claimStdout()
        signal(SIGPIPE, SIG_IGN)
        // From here on SIGTERM, SIGINT and SIGHUP stop the engine gracefully (once it serves).
        let stopSignals = StopSignals()
        let diagnostics = DiagnosticsLog()
        let logger = common.bootstrapLogging(diagnostics: diagnostics)
        let engine: Engine
        do {
            engine = try Engine(configuration: try engineOptions.configuration(diagnostics: diagnostics, logger: logger), logger: logger)
        } catch {
            logger.critical("cannot start: \(error)")
            throw ExitCode(2)
        }
        let server = RPCServer(
            methods: try methods(engine), options: options(try engineOptions.serverOptions()), input: 0, output: protocolFD, logger: logger)
        stopSignals.onSignal { name in server.stop(code: 0, reason: "received \(name)") }
        // Other engines on the same data directory: this one follows their changes, and with
        // `forwardsEngineEvents` tells the client unasked (database/didSwitch, favorites/didChange…).
        engine.watchSharedState { event in if forwardsEngineEvents { server.notify(event) } }
        logger.info("serving \(mode) on stdio (version \(EngineInfo.version))")
        let code = await server.run()
        // Every way out (end of input, `exit`, a signal, the parent gone, stdout closed) comes
        // here: end imports, leave favourites whole on disk, remove the scratch directory.
        await engine.close()
        logger.info("exiting with code \(code)")
        // Everything is flushed; leave at once, before other threads can touch torn-down state.
        Foundation.exit(code)
    }
}
