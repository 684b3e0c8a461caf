#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
public import STOLClient
internal import STOLEngine
public import STOLRPC
import STOLSupport

/// Runs the engine inside the app's own process, where spawning a process is not allowed
/// (iOS): the same server as `stol-engine serve`, over a pair of pipes, so every call has the
/// same ordering, cancellation, progress and errors as with `ProcessTransport`.
///
/// It is a library of its own (STOLInProcess) because it links the whole engine (GRDB, SQLite,
/// the embedded database): an app that spawns the binary links STOLClient alone.
public struct InProcessTransport: EngineTransport {
    /// What one start serves: a method table, the server's options, and what to do once it ends.
    private struct Served {
        var methods: MethodTable
        var options: RPCServer.Options
        /// Hands engine events to the server, once it exists.
        var forward: (@Sendable (RPCServer) -> Void)?
        var end: @Sendable () async -> Void
    }

    private let serve: @Sendable (Logger) throws -> Served
    private let logger: Logger

    /// The engine on `dataDirectory` (favourites, settings, imported databases), serving the
    /// embedded database, or `databaseFile` when given.
    public init(dataDirectory: URL, databaseFile: URL? = nil, logger: Logger = Logger(label: "stol-engine")) {
        self.logger = logger
        serve = { logger in
            let engine = try Engine(configuration: Engine.Configuration(dataDirectory: dataDirectory, bundledDatabase: databaseFile), logger: logger)
            var options = RPCServer.Options()
            options.identity.serverName = EngineInfo.name
            options.identity.serverVersion = EngineInfo.version
            options.identity.protocolVersion = EngineInfo.protocolVersion
            options.identity.discoverDocument = (try? EngineInfo.openRPCDocument()) ?? options.identity.discoverDocument
            return Served(
                methods: engine.methods(), options: options,
                forward: { server in engine.watchSharedState { event in server.notify(event) } },
                end: { await engine.close() })
        }
    }

    /// Any method table, served as the engine would be (tests of handlers and of the server).
    public init(methods: @escaping @Sendable () throws -> MethodTable, options: RPCServer.Options = RPCServer.Options(), logger: Logger = Logger(label: "stol-engine")) {
        self.logger = logger
        serve = { _ in Served(methods: try methods(), options: options, forward: nil, end: {}) }
    }

    public func start() throws -> EngineChannel {
        let served = try serve(logger)
        var requests: [Int32] = [0, 0], messages: [Int32] = [0, 0]
        guard pipe(&requests) == 0, pipe(&messages) == 0 else {
            throw STOLClientError.startFailed("cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        let server = RPCServer(methods: served.methods, options: served.options, input: requests[0], output: messages[1], logger: logger, ownsInput: true)
        served.forward?(server)
        let output = messages[1]
        let run = Task {
            let code = await server.run()
            await served.end()
            // Everything is written: the client reads to the end and sees the engine gone.
            close(output)
            return EngineExit(cause: .exited(code: code))
        }
        let reading = messages[0]
        return EngineChannel(
            input: requests[1], output: reading, processID: nil, watchedProcessID: nil,
            terminate: { server.stop(code: 1, reason: "ended by the client") },
            exit: { await run.value },
            release: { close(reading) })
    }
}
