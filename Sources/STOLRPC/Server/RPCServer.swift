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
        /// Intake pauses while more than this many response bytes wait for the client (answers
        /// held for a batch that is not complete yet count too).
        public var outputBudgetBytes = 16 << 20
        /// Intake also pauses while this many requests are still running (each request of a batch
        /// counts), so that answers not yet written are bounded too: the budget alone cannot see them.
        public var maxRunningRequests = 64
        /// A batch with more entries than this is answered with one `batchTooLarge` error and
        /// none of it runs: its answers are held until the last one is ready.
        public var maxBatchEntries = 1000
        /// After `stop`, how long cancelled requests may take to end and their answers to be
        /// written before `run()` returns anyway.
        public var stopGracePeriod: Duration = .seconds(10)
        /// Exit when this process dies (also settable by `initialize.processId`).
        public var parentProcessID: Int32?

        public init() {}
    }

    private struct InFlight {
        var task: Task<[UInt8]?, Never>?
        var cancelRequested = false
    }

    /// Whether a request read from input may run.
    private enum Admission {
        case run
        /// Read after `shutdown`: answered -32001.
        case shutDown
        /// Read after `stop`: answered -32800 without running.
        case stopped
    }

    private struct State {
        /// Requests with an id, by id and serial, for `$/cancelRequest`.
        var inFlight: [RequestID: [Int: InFlight]] = [:]
        /// Every started request and notification, by serial: what `shutdown` waits for and
        /// `stop` cancels.
        var running: [Int: InFlight] = [:]
        var nextSerial = 0
        /// Units of work (a request line, a batch) not yet answered.
        var outstanding = 0
        var endOfInput = false
        var shutDown = false
        /// Set by `exit` or `stop`: input is no longer read, and `run()` returns this code once
        /// the outstanding work has ended.
        var exitCode: Int32?
        var stopping = false
        /// Ends the server if cancelled requests outlast `stopGracePeriod`; cancelled on finish.
        var graceTimer: Task<Void, Never>?
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
    /// One slot per running request; the reader thread waits for a free one.
    private let slots: DispatchSemaphore
    /// What the writer thread calls when the client closes stdout (set once `self` exists).
    private let onBrokenPipe = Locked<(@Sendable () -> Void)?>(nil)

    /// Creates a server reading requests from `input` and writing messages to `output`.
    public init(methods: MethodTable, options: Options, input: Int32, output: Int32, logger: Logger) {
        self.methods = methods
        self.options = options
        self.logger = logger
        self.inputFD = input
        self.slots = DispatchSemaphore(value: max(1, options.maxRunningRequests))
        (exitCodes, exitContinuation) = AsyncStream.makeStream(of: Int32.self)
        let brokenPipe = onBrokenPipe
        self.output = OutputWriter(fd: output) { brokenPipe.withLock { $0 }?() }
        brokenPipe.withLock {
            $0 = { [weak self] in self?.stop(code: 0, reason: "the client closed its end of the protocol stream") }
        }
    }

    /// Serves until `exit`, end of input, `stop`, or a closed output; returns the process exit code.
    /// Every request read before the end is answered (or cancelled and answered -32800) first.
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
        if state.withLock({ $0.stopping }) {
            // A client that stopped reading must not keep a stopping engine alive.
            if !output.flush(timeout: options.stopGracePeriod) { logger.warning("gave up writing the last answers: the client is not reading") }
        } else {
            output.flush()
        }
        output.close()
        return code
    }

    /// Ends serving early (a signal, a vanished parent): stops reading input, cancels every
    /// request in flight (each is still answered, -32800 unless it finishes first), and makes
    /// `run()` return `code` once they have ended, or after `Options.stopGracePeriod`.
    /// Safe from any thread, and more than once (the first code wins).
    public func stop(code: Int32, reason: String) {
        let cancelled: (tasks: [Task<[UInt8]?, Never>], idle: Bool, code: Int32)? = state.withLock { s in
            guard !s.stopping, !s.finished else { return nil }
            s.stopping = true
            if s.exitCode == nil { s.exitCode = code }
            var tasks: [Task<[UInt8]?, Never>] = []
            for serial in s.running.keys {
                s.running[serial]?.cancelRequested = true
                if let task = s.running[serial]?.task { tasks.append(task) }
            }
            return (tasks, s.outstanding == 0, s.exitCode ?? code)
        }
        guard let cancelled else { return }
        logger.info("stopping (\(reason)): cancelling \(cancelled.tasks.count) request(s) in flight")
        for task in cancelled.tasks { task.cancel() }
        if cancelled.idle {
            finish(cancelled.code)
            return
        }
        let grace = options.stopGracePeriod
        let timer = Task { [self] in
            guard (try? await Task.sleep(for: grace)) != nil else { return }
            if finish(cancelled.code) { logger.warning("requests still running \(grace) after stop; exiting anyway") }
        }
        let alreadyFinished = state.withLock { s -> Bool in
            s.graceTimer = timer
            return s.finished
        }
        if alreadyFinished { timer.cancel() }
    }

    // MARK: Intake (reader thread)

    private func receive(_ event: LineFramer.Event) {
        // After `exit` or `stop` nothing more is read.
        if state.withLock({ $0.exitCode != nil }) { return }
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
        // A batch over the cap is refused before it is parsed: its values alone could take
        // many times the line's size.
        if let entries = BatchEntryCounter.count(line), entries > options.maxBatchEntries {
            refuseBatch(entries: entries)
            return
        }
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
            beginWork()
            slots.wait()
            let task = start(request)
            let output = self.output, slots = self.slots
            Task { [self] in
                if let bytes = await task.value { output.send(bytes) }
                slots.signal()
                endWork()
            }
        }
    }

    /// Runs a batch: each request in it takes a running-request slot of its own, and the answers
    /// of finished parts count against the output budget until the whole array is sent.
    private func receive(batch entries: [JSONValue]) {
        guard entries.count <= options.maxBatchEntries else {
            refuseBatch(entries: entries.count)
            return
        }
        beginWork()
        let output = self.output, slots = self.slots
        var parts: [Task<[UInt8]?, Never>] = []
        entries: for entry in entries {
            switch IncomingMessage(entry) {
            case .response:
                continue
            case let .invalid(id, error):
                let bytes = Self.response(id: id, error: error)
                output.reserve(bytes.count)
                parts.append(Task { bytes })
            case .request(let request):
                if handleInline(request) {
                    // Nothing after an `exit` is read, in this batch or later.
                    if state.withLock({ $0.exitCode != nil }) { break entries }
                    continue
                }
                slots.wait()
                let task = start(request)
                parts.append(Task {
                    let bytes = await task.value
                    slots.signal()
                    if let bytes { output.reserve(bytes.count) }
                    return bytes
                })
            }
        }
        let started = parts
        Task { [self] in
            var responses: [[UInt8]] = []
            for part in started {
                if let bytes = await part.value { responses.append(bytes) }
            }
            if !responses.isEmpty {
                var out: [UInt8] = [UInt8(ascii: "[")]
                for (i, response) in responses.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    out.append(contentsOf: response)
                }
                out.append(UInt8(ascii: "]"))
                output.send(out)
                output.release(responses.reduce(0) { $0 + $1.count })
            }
            endWork()
        }
    }

    /// Answers a batch over `maxBatchEntries` with one error; none of its entries runs.
    private func refuseBatch(entries: Int) {
        logger.warning("refused a batch of \(entries) entries, over the \(options.maxBatchEntries)-entry limit")
        let error = RPCError.kind(
            ErrorCode.invalidRequest, "batchTooLarge", "Batch too large",
            ["limit": .integer(options.maxBatchEntries), "size": .integer(entries)])
        output.send(Self.response(id: .null, error: error))
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
            // Everything read before `exit` is answered first; nothing after it is read.
            let (code, idle) = state.withLock { s -> (Int32, Bool) in
                if s.exitCode == nil { s.exitCode = s.shutDown ? 0 : 1 }
                return (s.exitCode ?? 1, s.outstanding == 0)
            }
            logger.info("exit requested (code \(code))")
            if idle { finish(code) }
            return true
        default:
            return false
        }
    }

    /// Starts a request's task; its value is the response bytes, or nil for a notification.
    private func start(_ request: Request) -> Task<[UInt8]?, Never> {
        let ordered = methods[request.method]?.ordered ?? false
        let (serial, admission, earlier) = state.withLock { s -> (Int, Admission, [Task<[UInt8]?, Never>]) in
            s.nextSerial += 1
            let admission: Admission = s.stopping ? .stopped : s.shutDown ? .shutDown : .run
            guard admission == .run else { return (s.nextSerial, admission, []) }
            var earlier: [Task<[UInt8]?, Never>] = []
            if request.method == "shutdown" {
                // Decided in input order: what was read before it runs, what comes after is refused.
                s.shutDown = true
                earlier = s.running.values.compactMap(\.task)
            }
            s.running[s.nextSerial] = InFlight()
            if let id = request.id { s.inFlight[id, default: [:]][s.nextSerial] = InFlight() }
            return (s.nextSerial, admission, earlier)
        }
        switch admission {
        case .stopped:
            return Task { request.id.map { Self.response(id: $0, error: .cancelled) } }
        case .shutDown:
            return Task { request.id.map { Self.response(id: $0, error: .serverShutDown) } }
        case .run:
            break
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
        } else if !earlier.isEmpty {
            // `shutdown` answers once everything read before it has been answered.
            task = Task { [self] in
                for previous in earlier { _ = await previous.value }
                return await execute(request, serial: serial)
            }
        } else {
            task = Task { [self] in await execute(request, serial: serial) }
        }
        let cancelNow = state.withLock { s -> Bool in
            var cancel = false
            if s.running[serial] != nil {
                s.running[serial]?.task = task
                cancel = s.running[serial]?.cancelRequested ?? false
            }
            if let id = request.id, s.inFlight[id]?[serial] != nil {
                s.inFlight[id]?[serial]?.task = task
                cancel = cancel || (s.inFlight[id]?[serial]?.cancelRequested ?? false)
            }
            return cancel
        }
        if cancelNow { task.cancel() }
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
            state.withLock { s in
                s.running[serial] = nil
                if let id = request.id {
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
            // The flag was set when the request was read (`start`).
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

    /// Counts a unit of work (a request line or a batch) so that the end waits for it.
    private func beginWork() {
        state.withLock { $0.outstanding += 1 }
    }

    /// Ends a unit of work; the last one out after end of input, `exit` or `stop` ends the server.
    private func endWork() {
        let code: Int32? = state.withLock { s in
            s.outstanding -= 1
            guard s.outstanding == 0 else { return nil }
            return s.exitCode ?? (s.endOfInput ? 0 : nil)
        }
        if let code { finish(code) }
    }

    private func inputEnded() {
        logger.debug("end of input")
        let code: Int32? = state.withLock { s in
            s.endOfInput = true
            guard s.outstanding == 0 else { return nil }
            return s.exitCode ?? 0
        }
        if let code { finish(code) }
    }

    /// Makes `run()` return `code`; returns false when it had already been told to.
    @discardableResult
    private func finish(_ code: Int32) -> Bool {
        let (first, timer) = state.withLock { s -> (Bool, Task<Void, Never>?) in
            defer { s.finished = true }
            return (!s.finished, s.graceTimer)
        }
        timer?.cancel()
        if first { exitContinuation.yield(code) }
        return first
    }

    private func watchParent(_ pid: Int32) {
        let isNew = state.withLock { s -> Bool in
            guard s.watchedParent != pid else { return false }
            s.watchedParent = pid
            return true
        }
        guard isNew else { return }
        logger.debug("watching parent process \(pid)")
        let parent = ParentProcess(pid: pid)
        Task { [self] in
            while !state.withLock({ $0.finished }) {
                try? await Task.sleep(for: .milliseconds(500))
                if let why = parent.goneReason() {
                    logger.info("parent process \(pid) is gone (\(why)); exiting")
                    stop(code: 1, reason: "parent process \(pid) is gone")
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
