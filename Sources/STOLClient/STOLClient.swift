import Foundation
import STOLJSON
import STOLProtocol
import STOLSupport

/// A client of the engine: every method of the protocol, typed by its contract.
///
/// ```swift
/// let client = STOLClient(transport: ProcessTransport(executable: engineURL))
/// let page = try await client.send(TaxonDetailRequest(id: 5, lang: "de"))
/// for await change in client.notifications(FavoritesDidChangeNotification.self) { … }
/// ```
///
/// The engine starts on the first call (or `start()`); calls may run concurrently, and the engine
/// answers each as soon as it is ready. Cancelling the calling task sends `$/cancelRequest`.
/// Errors the engine answers with are thrown as `RPCError` (code, `kind`, `data`); when the
/// engine ends, every call still waiting fails with `STOLClientError.engineExited`, and
/// `restart()` starts a new one.
public final class STOLClient: Sendable {
    /// Where the engine runs.
    public let transport: any EngineTransport
    /// Who this client says it is in `initialize`.
    public let clientInfo: InitializeRequest.ClientInfo
    private let hub = NotificationHub()
    private let exits = Locked<[UUID: AsyncStream<EngineExit>.Continuation]>([:])
    private let session = Locked<Session>(.idle)

    private enum Session {
        case idle
        case starting(Task<(EngineConnection, InitializeResult), any Error>)
        case running(EngineConnection, InitializeResult)
        case shutDown
    }

    public init(transport: any EngineTransport, clientInfo: InitializeRequest.ClientInfo = .init(name: "STOLClient")) {
        self.transport = transport
        self.clientInfo = clientInfo
    }

    /// A client of the binary at `executable`, spawned with `arguments`.
    public convenience init(executable: URL, arguments: [String] = []) {
        self.init(transport: ProcessTransport(executable: executable, arguments: arguments))
    }

    // MARK: Calls

    /// Sends `request` and returns the engine's answer.
    public func send<R: RPCRequest>(_ request: R) async throws -> R.Response {
        try Self.decode(R.self, try await connection().call(method: R.method, params: try JSONEncoding.encode(request)))
    }

    /// Sends `request` asking for progress, which `progress` receives as it comes (on the
    /// client's reader thread: hand it on, do not block), and returns the engine's answer.
    public func send<R: RPCRequest>(_ request: R, progress: @escaping @Sendable (WorkProgress) -> Void) async throws -> R.Response {
        try Self.decode(R.self, try await connection().call(method: R.method, params: try JSONEncoding.encode(request), progress: progress))
    }

    /// Calls a method this client has no contract for (one newer than it), with raw params.
    public func send(method: String, params: JSONValue? = nil) async throws -> JSONValue {
        try await connection().call(method: method, params: params.map(JSONWriter.encode))
    }

    /// Sends a notification, such as `InitializedNotification`.
    public func notify<N: RPCNotification>(_ notification: N) async throws {
        try await connection().notify(method: N.method, params: try JSONEncoding.encode(notification))
    }

    /// The notifications `N` the engine sends from now on (`FavoritesDidChangeNotification`,
    /// `DatabaseDidSwitchNotification`, …), across restarts, until the stream is dropped.
    public func notifications<N: RPCNotification>(_ type: N.Type) -> AsyncStream<N> {
        hub.stream(of: type)
    }

    /// Each time an engine ends, how it ended (a crash, a kill, a shutdown), until the stream is dropped.
    public func engineExits() -> AsyncStream<EngineExit> {
        AsyncStream { continuation in
            let key = UUID()
            exits.withLock { $0[key] = continuation }
            continuation.onTermination = { [weak self] _ in self?.exits.withLock { _ = $0.removeValue(forKey: key) } }
        }
    }

    // MARK: Lifetime

    /// Starts the engine if it is not running, and returns what it said about itself.
    @discardableResult
    public func start() async throws -> InitializeResult {
        try await running().1
    }

    /// Ends the running engine, if any (calls still waiting fail), and starts a new one.
    @discardableResult
    public func restart() async throws -> InitializeResult {
        let previous = session.withLock { s -> EngineConnection? in
            guard case .running(let connection, _) = s else { return nil }
            s = .idle
            return connection
        }
        if let previous { await stop(previous, gracefully: false) }
        return try await start()
    }

    /// Ends the engine the polite way (`shutdown`, then `exit`), waiting for it; later calls fail
    /// with `STOLClientError.shutDown`.
    public func shutdown() async {
        let previous = session.withLock { s -> EngineConnection? in
            defer { s = .shutDown }
            guard case .running(let connection, _) = s else { return nil }
            return connection
        }
        guard let previous else { return }
        _ = try? await previous.call(method: ShutdownRequest.method, params: nil)
        try? previous.notify(method: ExitNotification.method, params: nil)
        await stop(previous, gracefully: true)
    }

    /// Whether an engine is running now (it may still end at any moment).
    public var isRunning: Bool {
        session.withLock { if case .running = $0 { return true } else { return false } }
    }

    private func connection() async throws -> EngineConnection {
        try await running().0
    }

    /// The running engine, started (once, whoever asks first) when there is none; one that has
    /// ended stays until `restart()`, so its calls fail with how it ended.
    private func running() async throws -> (EngineConnection, InitializeResult) {
        let task = try session.withLock { s -> Task<(EngineConnection, InitializeResult), any Error> in
            switch s {
            case .running(let connection, let info):
                return Task { (connection, info) }
            case .starting(let task):
                return task
            case .shutDown:
                throw STOLClientError.shutDown
            case .idle:
                let task = Task { try await self.launch() }
                s = .starting(task)
                return task
            }
        }
        do {
            let running = try await task.value
            session.withLock { if case .starting = $0 { $0 = .running(running.0, running.1) } }
            return running
        } catch {
            session.withLock { if case .starting = $0 { $0 = .idle } }
            throw error
        }
    }

    /// Starts an engine and greets it (`initialize`, then `initialized`).
    private func launch() async throws -> (EngineConnection, InitializeResult) {
        let connection = EngineConnection(channel: try transport.start(), hub: hub)
        Task { [weak self] in
            let exit = await connection.waitUntilEnded()
            self?.announce(exit)
        }
        let hello = InitializeRequest(processId: connection.channel.watchedProcessID, clientInfo: clientInfo)
        let info = try Self.decode(InitializeRequest.self, try await connection.call(method: InitializeRequest.method, params: try JSONEncoding.encode(hello)))
        try connection.notify(method: InitializedNotification.method, params: nil)
        return (connection, info)
    }

    /// Closes the engine's input and waits for it to end; ends it at once when it does not
    /// within a few seconds (or right away, unless `gracefully`).
    private func stop(_ connection: EngineConnection, gracefully: Bool) async {
        if gracefully {
            await connection.closeInput()
            let deadline = Task {
                guard (try? await Task.sleep(for: .seconds(5))) != nil else { return }
                connection.channel.terminate()
            }
            _ = await connection.waitUntilEnded()
            deadline.cancel()
        } else {
            connection.channel.terminate()
            _ = await connection.waitUntilEnded()
        }
    }

    private func announce(_ exit: EngineExit) {
        for continuation in exits.withLock({ Array($0.values) }) { continuation.yield(exit) }
    }

    private static func decode<R: RPCRequest>(_ request: R.Type, _ result: JSONValue) throws -> R.Response {
        do {
            return try JSONValueDecoder().decode(R.Response.self, from: result)
        } catch {
            throw STOLClientError.invalidResponse(method: R.method, detail: "\(error)")
        }
    }
}
