#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging

/// A JSON-RPC 2.0 server over a pair of file descriptors.
///
/// A dedicated thread reads and frames input; every request runs in its own task and is answered
/// when ready, so a slow request never holds up a fast one; one writer thread owns the output.
public final class RPCServer: Sendable {
    /// What the server says about itself and how it bounds its resources.
    public struct Options: Sendable {
        public var serverName = "stol-engine"
        public var serverVersion = "0.0.0"
        public var protocolVersion = "1.0"
        /// Capabilities advertised by `initialize`.
        public var capabilities: JSONValue = .object(["cancellation": true, "progress": true, "batches": true])
        /// The OpenRPC document returned by `rpc.discover`, as raw JSON bytes.
        public var discoverDocument: [UInt8] = Array("{}".utf8)
        /// Lines longer than this are answered with an error and skipped.
        public var maxMessageBytes = 64 << 20
        /// Intake pauses while more than this many response bytes wait for the client.
        public var outputBudgetBytes = 16 << 20
        /// Intake also pauses while this many request lines (a batch is one) are still running, so
        /// that answers not yet written are bounded too: the budget alone cannot see them.
        public var maxRunningRequests = 64
        /// Exit when this process dies (also settable by `initialize.processId`).
        public var parentProcessID: Int32?

        public init() {}
    }

    private struct InFlight {
        var task: Task<[UInt8]?, Never>?
        var cancelRequested = false
    }

    private struct State {
        var inFlight: [RequestID: [Int: InFlight]] = [:]
        var nextSerial = 0
        var outstanding = 0
        var endOfInput = false
        var shutDown = false
        var finished = false
        var orderedTail: Task<Void, Never>?
        var watchedParent: Int32?
    }

    private let methods: MethodTable
    private let options: Options
    private let logger: Logger
    private let state = Locked(State())
    private let exitCodes: AsyncStream<Int32>
    private let exitContinuation: AsyncStream<Int32>.Continuation
    private let output: OutputWriter
    private let inputFD: Int32
    /// One slot per running request line; the reader thread waits for a free one.
    private let slots: DispatchSemaphore

    /// Creates a server reading requests from `input` and writing messages to `output`.
    public init(methods: MethodTable, options: Options, input: Int32, output: Int32, logger: Logger) {
        self.methods = methods
        self.options = options
        self.logger = logger
        self.inputFD = input
        self.slots = DispatchSemaphore(value: max(1, options.maxRunningRequests))
        (exitCodes, exitContinuation) = AsyncStream.makeStream(of: Int32.self)
        let continuation = exitContinuation
        let log = logger
        self.output = OutputWriter(fd: output) {
            log.info("the client closed its end of the protocol stream; exiting")
            continuation.yield(0)
        }
    }

    /// Serves until `exit`, end of input, or a closed output; returns the process exit code.
    public func run() async -> Int32 {
        if let pid = options.parentProcessID { watchParent(pid) }
        let reader = InputReader(fd: inputFD, maxLineBytes: options.maxMessageBytes)
        let output = self.output
        let budget = options.outputBudgetBytes
        reader.start(
            gate: { output.waitUntilPending(below: budget) },
            onEvent: { [self] event in receive(event) },
            onEnd: { [self] in inputEnded() }
        )
        var code: Int32 = 0
        for await value in exitCodes {
            code = value
            break
        }
        output.flush()
        output.close()
        return code
    }

    // MARK: Intake (reader thread)

    private func receive(_ event: LineFramer.Event) {
        switch event {
        case .oversized(let size):
            logger.warning("skipped a message of \(size) bytes, over the \(options.maxMessageBytes)-byte limit")
            let error = RPCError.kind(
                ErrorCode.invalidRequest, "messageTooLarge", "Message too large",
                ["limit": .integer(options.maxMessageBytes), "size": .integer(size)])
            output.send(Self.response(id: .null, error: error))
        case .line(let bytes):
            receive(line: bytes)
        }
    }

    private func receive(line: [UInt8]) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            output.send(Self.response(id: .null, error: .parseError(error)))
            return
        }
        if case .array(let entries) = value {
            guard !entries.isEmpty else {
                output.send(Self.response(id: .null, error: .invalidRequest("an empty batch is not a request")))
                return
            }
            receive(batch: entries)
            return
        }
        switch IncomingMessage(value) {
        case .response:
            logger.debug("ignored a response from the client")
        case let .invalid(id, error):
            output.send(Self.response(id: id, error: error))
        case .request(let request):
            if handleInline(request) { return }
            slots.wait()
            let task = start(request)
            let output = self.output
            track {
                if let bytes = await task.value { output.send(bytes) }
            }
        }
    }

    private func receive(batch entries: [JSONValue]) {
        slots.wait()
        var parts: [Task<[UInt8]?, Never>] = []
        for entry in entries {
            switch IncomingMessage(entry) {
            case .response:
                continue
            case let .invalid(id, error):
                let bytes = Self.response(id: id, error: error)
                parts.append(Task { bytes })
            case .request(let request):
                if handleInline(request) { continue }
                parts.append(start(request))
            }
        }
        let output = self.output
        let started = parts
        track {
            var responses: [[UInt8]] = []
            for part in started {
                if let bytes = await part.value { responses.append(bytes) }
            }
            guard !responses.isEmpty else { return }
            var out: [UInt8] = [UInt8(ascii: "[")]
            for (i, response) in responses.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: response)
            }
            out.append(UInt8(ascii: "]"))
            output.send(out)
        }
    }

    /// Handles the messages whose effect must be immediate and ordered with input: cancellation
    /// and `exit`. Returns true when the message was consumed.
    private func handleInline(_ request: Request) -> Bool {
        switch request.method {
        case "$/cancelRequest":
            guard request.isNotification else { return false }
            if let raw = request.params?["id"], let id = RequestID(raw), raw != .null { cancel(id) }
            return true
        case "exit":
            guard request.isNotification else { return false }
            let code: Int32 = state.withLock { $0.shutDown } ? 0 : 1
            logger.info("exit requested (code \(code))")
            finish(code)
            return true
        default:
            return false
        }
    }

    /// Starts a request's task; its value is the response bytes, or nil for a notification.
    private func start(_ request: Request) -> Task<[UInt8]?, Never> {
        let ordered = methods[request.method]?.ordered ?? false
        let serial: Int = state.withLock { s in
            s.nextSerial += 1
            if let id = request.id { s.inFlight[id, default: [:]][s.nextSerial] = InFlight() }
            return s.nextSerial
        }
        let task: Task<[UInt8]?, Never>
        if ordered {
            // Chain behind the previous ordered request so state changes apply in arrival order.
            let previous = state.withLock { $0.orderedTail }
            task = Task { [self] in
                await previous?.value
                return await execute(request, serial: serial)
            }
            state.withLock { $0.orderedTail = Task { _ = await task.value } }
        } else {
            task = Task { [self] in await execute(request, serial: serial) }
        }
        if let id = request.id {
            let cancelNow = state.withLock { s -> Bool in
                guard s.inFlight[id]?[serial] != nil else { return false }
                s.inFlight[id]?[serial]?.task = task
                return s.inFlight[id]?[serial]?.cancelRequested ?? false
            }
            if cancelNow { task.cancel() }
        }
        return task
    }

    private func cancel(_ id: RequestID) {
        let tasks: [Task<[UInt8]?, Never>] = state.withLock { s in
            guard var entries = s.inFlight[id] else { return [] }
            for key in entries.keys { entries[key]?.cancelRequested = true }
            s.inFlight[id] = entries
            return entries.values.compactMap(\.task)
        }
        if tasks.isEmpty { logger.debug("cancel for \(id) ignored: no such request in flight") }
        for task in tasks { task.cancel() }
    }

    // MARK: Execution

    private func execute(_ request: Request, serial: Int) async -> [UInt8]? {
        defer {
            if let id = request.id {
                state.withLock { s in
                    s.inFlight[id]?[serial] = nil
                    if s.inFlight[id]?.isEmpty == true { s.inFlight[id] = nil }
                }
            }
        }
        let progress = progressReporter(for: request)
        let outcome: Result<[UInt8], RPCError>
        do {
            outcome = .success(try await dispatch(request, progress: progress))
        } catch let error as RPCError {
            outcome = .failure(error)
        } catch let error as any RPCErrorConvertible {
            outcome = .failure(error.rpcError)
        } catch is CancellationError {
            outcome = .failure(.cancelled)
        } catch where Task.isCancelled {
            // A cancelled read fails with the database's own error (SQLite's interrupt), not
            // CancellationError; the client asked for a cancel, so that is the answer it gets.
            outcome = .failure(.cancelled)
        } catch {
            logger.error("\(request.method) failed: \(String(describing: error))")
            outcome = .failure(.internalError)
        }
        progress?.close()
        guard let id = request.id else {
            if case .failure(let error) = outcome {
                logger.debug("notification \(request.method) failed: \(error.message)")
            }
            return nil
        }
        switch outcome {
        case .success(let bytes): return Self.response(id: id, result: bytes)
        case .failure(let error): return Self.response(id: id, error: error)
        }
    }

    private func dispatch(_ request: Request, progress: ProgressReporter?) async throws -> [UInt8] {
        if state.withLock({ $0.shutDown }) { throw RPCError.serverShutDown }
        // An ordered request may have been cancelled while it waited for its turn.
        try Task.checkCancellation()
        let context = RequestContext(id: request.id, method: request.method, progress: progress, output: output)
        switch request.method {
        case "initialize":
            return JSONWriter.encode(try initialize(request.params))
        case "initialized":
            return JSONWriter.encode(.null)
        case "ping":
            return Array("{}".utf8)
        case "shutdown":
            state.withLock { $0.shutDown = true }
            logger.info("shutdown requested")
            return JSONWriter.encode(.null)
        case "rpc.discover":
            return options.discoverDocument
        default:
            guard let method = methods[request.method] else { throw RPCError.methodNotFound(request.method) }
            return try await method.run(request.params, context)
        }
    }

    private func initialize(_ params: JSONValue?) throws -> JSONValue {
        if let params, case .array = params {
            throw RPCError.invalidParams(field: nil, "params must be an object with named fields")
        }
        if let pid = params?["processId"], pid != .null {
            guard let value = pid.int64Value, value > 0, value <= Int64(Int32.max) else {
                throw RPCError.invalidParams(field: "processId", "must be a positive integer or null")
            }
            watchParent(Int32(value))
        }
        return .object([
            "serverInfo": .object(["name": .string(options.serverName), "version": .string(options.serverVersion)]),
            "protocolVersion": .string(options.protocolVersion),
            "capabilities": options.capabilities,
        ])
    }

    private func progressReporter(for request: Request) -> ProgressReporter? {
        guard request.id != nil, let token = request.params?["_meta"]?["progressToken"] else { return nil }
        switch token {
        case .string, .number: return ProgressReporter(token: token, output: output)
        default: return nil
        }
    }

    // MARK: Lifetime

    /// Counts a unit of work so that end of input waits for it.
    /// Runs one request line's work, holding the slot its caller took on the reader thread: the
    /// reader waits for a slot while `maxRunningRequests` lines run (a cancel behind them is read
    /// once one ends).
    private func track(_ work: @escaping @Sendable () async -> Void) {
        state.withLock { $0.outstanding += 1 }
        Task { [self] in
            await work()
            slots.signal()
            let done = state.withLock { s -> Bool in
                s.outstanding -= 1
                return s.outstanding == 0 && s.endOfInput
            }
            if done { finish(0) }
        }
    }

    private func inputEnded() {
        logger.debug("end of input")
        let done = state.withLock { s -> Bool in
            s.endOfInput = true
            return s.outstanding == 0
        }
        if done { finish(0) }
    }

    private func finish(_ code: Int32) {
        let first = state.withLock { s -> Bool in
            defer { s.finished = true }
            return !s.finished
        }
        if first { exitContinuation.yield(code) }
    }

    private func watchParent(_ pid: Int32) {
        let isNew = state.withLock { s -> Bool in
            guard s.watchedParent != pid else { return false }
            s.watchedParent = pid
            return true
        }
        guard isNew else { return }
        logger.debug("watching parent process \(pid)")
        Task { [self] in
            while true {
                try? await Task.sleep(for: .milliseconds(500))
                if kill(pid, 0) != 0 && errno == ESRCH {
                    logger.info("parent process \(pid) is gone; exiting")
                    finish(1)
                    return
                }
            }
        }
    }

    // MARK: Encoding

    static func response(id: RequestID, result: [UInt8]) -> [UInt8] {
        var out = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
        JSONWriter.write(id.json, into: &out)
        out.append(contentsOf: #","result":"#.utf8)
        out.append(contentsOf: result)
        out.append(UInt8(ascii: "}"))
        return out
    }

    static func response(id: RequestID, error: RPCError) -> [UInt8] {
        var out = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
        JSONWriter.write(id.json, into: &out)
        out.append(contentsOf: #","error":"#.utf8)
        JSONWriter.write(error.json, into: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }
}
