#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
import STOLSupport
import STOLJSON

/// A JSON-RPC 2.0 server over a pair of file descriptors.
///
/// The server frames and routes. A dedicated thread reads and frames input; each request is looked
/// up once and runs in one task, after the earlier requests its method's `MethodOrdering` names;
/// its answer is sent when ready, so a slow request never holds up a fast one. Cancellation lives
/// in `InFlightRegistry`, ordering in `OrderingScheduler`, envelopes in `Envelope`; one writer
/// thread owns the output.
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
        /// Whether the server adds `LifecycleMethods` to the table. Off for a protocol that brings
        /// its own lifecycle (MCP).
        public var standardLifecycle = true
        /// The notification that cancels a request, and the params member holding its id.
        public var cancelNotification = "$/cancelRequest"
        public var cancelIDMember = "id"
        /// The notification that ends the server; nil when the protocol has none.
        public var exitNotification: String? = "exit"
        /// How progress notifications are written.
        public var progressNotation = ProgressReporter.Notation.dollarProgress
        /// Whether a request cancelled by the client is still answered (-32800). MCP says it is not.
        public var answersCancelledRequests = true
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

        var identity: LifecycleMethods.Identity {
            .init(serverName: serverName, serverVersion: serverVersion, protocolVersion: protocolVersion,
                  capabilities: capabilities, discoverDocument: discoverDocument)
        }
    }

    private typealias Work = Task<[UInt8]?, Never>

    private struct State {
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
        var watchedParent: Int32?
    }

    private let methods: MethodTable
    private let options: Options
    private let logger: Logger
    private let state = Locked(State())
    private let inFlight = InFlightRegistry()
    private let scheduler = OrderingScheduler()
    private let exitCodes: AsyncStream<Int32>
    private let exitContinuation: AsyncStream<Int32>.Continuation
    private let output: OutputWriter
    private let inputFD: Int32
    /// One slot per running request; the reader thread waits for a free one.
    private let slots: DispatchSemaphore
    /// What the writer thread calls when the client closes stdout (set once `self` exists).
    private let onBrokenPipe = Locked<(@Sendable () -> Void)?>(nil)
    private let session = Locked<SessionControls?>(nil)

    /// Creates a server reading requests from `input` and writing messages to `output`.
    public init(methods: MethodTable, options: Options, input: Int32, output: Int32, logger: Logger) {
        var table = options.standardLifecycle ? LifecycleMethods.table(options.identity) : MethodTable()
        table.merge(methods)
        self.methods = table
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
        session.withLock {
            $0 = SessionControls(watchParent: { [weak self] pid in self?.watchParent(pid) })
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
            onEvent: { [self] event, read in receive(event, read: read) },
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

    /// Sends a notification that answers no request, such as a change another process made.
    /// Safe from any thread; dropped once the server has finished.
    public func notify(_ method: String, _ params: JSONValue) {
        guard !state.withLock({ $0.finished }) else { return }
        output.send(Envelope.notification(method: method, params: params))
    }

    /// Ends serving early (a signal, a vanished parent): stops reading input, cancels every
    /// request in flight (each is still answered, -32800 unless it finishes first), and makes
    /// `run()` return `code` once they have ended, or after `Options.stopGracePeriod`.
    /// Safe from any thread, and more than once (the first code wins).
    public func stop(code: Int32, reason: String) {
        let decided: (idle: Bool, code: Int32)? = state.withLock { s in
            guard !s.stopping, !s.finished else { return nil }
            s.stopping = true
            if s.exitCode == nil { s.exitCode = code }
            return (s.outstanding == 0, s.exitCode ?? code)
        }
        guard let decided else { return }
        let cancelled = inFlight.cancelAll()
        logger.info("stopping (\(reason)): cancelled \(cancelled) request(s) in flight")
        if decided.idle {
            finish(decided.code)
            return
        }
        let grace = options.stopGracePeriod
        let timer = Task { [self] in
            guard (try? await Task.sleep(for: grace)) != nil else { return }
            if finish(decided.code) { logger.warning("requests still running \(grace) after stop; exiting anyway") }
        }
        let alreadyFinished = state.withLock { s -> Bool in
            s.graceTimer = timer
            return s.finished
        }
        if alreadyFinished { timer.cancel() }
    }

    // MARK: Intake (reader thread)

    private func receive(_ event: LineFramer.Event, read: Int) {
        // After `exit` or `stop` nothing more is read.
        if state.withLock({ $0.exitCode != nil }) { return }
        switch event {
        case .oversized(let size):
            logger.warning("skipped a message of \(size) bytes, over the \(options.maxMessageBytes)-byte limit")
            let error = RPCError.kind(
                ErrorCode.invalidRequest, "messageTooLarge", "Message too large",
                ["limit": .integer(options.maxMessageBytes), "size": .integer(size)])
            output.send(Envelope.response(id: .null, error: error))
        case .line(let bytes):
            receive(line: bytes, read: read)
        }
    }

    private func receive(line: [UInt8], read: Int) {
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
            output.send(Envelope.response(id: .null, error: .parseError(error)))
            return
        }
        if case .array(let entries) = value {
            guard !entries.isEmpty else {
                output.send(Envelope.response(id: .null, error: .invalidRequest("an empty batch is not a request")))
                return
            }
            receive(batch: entries)
            return
        }
        switch IncomingMessage(value) {
        case .response:
            logger.debug("ignored a response from the client")
        case let .invalid(id, error):
            output.send(Envelope.response(id: id, error: error))
        case .request(let request):
            if handleInline(request) { return }
            let method = methods[request.method]
            if let answer = answerImmediately(request, method: method, context: ImmediateContext(inputRead: read)) {
                output.send(answer)
                return
            }
            beginWork()
            slots.wait()
            let output = self.output, slots = self.slots
            start(request, method: method) { [self] bytes in
                if let bytes { output.send(bytes) }
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
        var parts: [Work] = []
        entries: for entry in entries {
            switch IncomingMessage(entry) {
            case .response:
                continue
            case let .invalid(id, error):
                let bytes = Envelope.response(id: id, error: error)
                output.reserve(bytes.count)
                parts.append(Task { bytes })
            case .request(let request):
                if handleInline(request) {
                    // Nothing after an `exit` is read, in this batch or later.
                    if state.withLock({ $0.exitCode != nil }) { break entries }
                    continue
                }
                slots.wait()
                parts.append(start(request, method: methods[request.method]) { bytes in
                    slots.signal()
                    if let bytes { output.reserve(bytes.count) }
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
                output.send(Envelope.batch(responses))
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
        output.send(Envelope.response(id: .null, error: error))
    }

    /// Handles the messages whose effect must be immediate and ordered with input: cancellation
    /// and `exit`. Returns true when the message was consumed.
    private func handleInline(_ request: Request) -> Bool {
        guard request.isNotification else { return false }
        if request.method == options.cancelNotification {
            if let raw = request.params?[options.cancelIDMember], let id = RequestID(raw), raw != .null {
                if inFlight.cancel(id: id) == 0 { logger.debug("cancel for \(id) ignored: no such request in flight") }
            }
            return true
        }
        if request.method == options.exitNotification {
            // Everything read before `exit` is answered first; nothing after it is read.
            let (code, idle) = state.withLock { s -> (Int32, Bool) in
                if s.exitCode == nil { s.exitCode = s.shutDown ? 0 : 1 }
                return (s.exitCode ?? 1, s.outstanding == 0)
            }
            logger.info("exit requested (code \(code))")
            if idle { finish(code) }
            return true
        }
        return false
    }

    /// The answer of a request whose method can answer at once (`MethodTable.on(_:immediately:_:)`),
    /// given on the intake thread without a task; nil when it must run as usual. Only requests
    /// with an id, no progress token and nothing to wait for qualify, and none once the server
    /// is stopping or shut down (those answers stay on the usual path).
    private func answerImmediately(_ request: Request, method: MethodTable.Method?, context: ImmediateContext) -> [UInt8]? {
        guard let method, let immediate = method.immediate, let id = request.id else { return nil }
        let ordering = method.ordering(for: request.params)
        guard ordering.writes.isEmpty, !ordering.closesIntake,
              request.params?["_meta"] == nil,
              !state.withLock({ $0.stopping || $0.shutDown }),
              scheduler.dependencies(of: ordering).isEmpty,
              let result = immediate(request.params, context)
        else { return nil }
        return Envelope.response(id: id, result: result)
    }

    /// Starts a request's one task, after what its ordering makes it wait for. The task's value is
    /// the response bytes (nil for a notification), also handed to `deliver` when ready.
    @discardableResult
    private func start(_ request: Request, method: MethodTable.Method?, deliver: @escaping @Sendable ([UInt8]?) -> Void) -> Work {
        let ordering = method?.ordering(for: request.params) ?? .concurrent
        let (serial, refusal) = state.withLock { s -> (Int, RPCError?) in
            s.nextSerial += 1
            if s.stopping { return (s.nextSerial, .cancelled) }
            if s.shutDown { return (s.nextSerial, .serverShutDown) }
            // Decided in input order: what was read before it runs, what comes after is refused.
            if ordering.closesIntake { s.shutDown = true }
            return (s.nextSerial, nil)
        }
        if let refusal {
            let bytes = request.id.map { Envelope.response(id: $0, error: refusal) }
            deliver(bytes)
            return Task { bytes }
        }
        let waits = ordering.closesIntake ? inFlight.running : scheduler.dependencies(of: ordering)
        inFlight.add(serial: serial, id: request.id)
        let work = Task { [self] in
            for earlier in waits { _ = await earlier.value }
            let bytes = await execute(request, method: method)
            // Delivered before the request leaves the registry: a `shutdown` read meanwhile
            // either waits for this task or finds its answer already sent.
            deliver(bytes)
            inFlight.remove(serial: serial)
            scheduler.finished(serial: serial, ordering: ordering)
            return bytes
        }
        scheduler.started(work, serial: serial, ordering: ordering)
        inFlight.attach(work, serial: serial)
        return work
    }

    // MARK: Execution

    private func execute(_ request: Request, method: MethodTable.Method?) async -> [UInt8]? {
        let progress = progressReporter(for: request)
        let outcome: Result<[UInt8], RPCError>
        do {
            // A request may have been cancelled while it waited for its turn.
            try Task.checkCancellation()
            guard let method else { throw RPCError.methodNotFound(request.method) }
            let context = RequestContext(
                id: request.id, method: request.method, progress: progress, output: output,
                session: session.withLock { $0 } ?? SessionControls(watchParent: { _ in }))
            outcome = .success(try await method.run(request.params, context))
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
        if !options.answersCancelledRequests, case .failure(let error) = outcome, error == .cancelled, !state.withLock({ $0.stopping }) {
            logger.debug("request \(request.id.map { "\($0)" } ?? "-") (\(request.method)) cancelled by the client; not answered")
            return nil
        }
        guard let id = request.id else {
            if case .failure(let error) = outcome {
                logger.debug("notification \(request.method) failed: \(error.message)")
            }
            return nil
        }
        switch outcome {
        case .success(let bytes): return Envelope.response(id: id, result: bytes)
        case .failure(let error): return Envelope.response(id: id, error: error)
        }
    }

    private func progressReporter(for request: Request) -> ProgressReporter? {
        guard request.id != nil, let token = request.params?["_meta"]?["progressToken"] else { return nil }
        switch token {
        case .string, .number: return ProgressReporter(token: token, notation: options.progressNotation, output: output)
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
}
