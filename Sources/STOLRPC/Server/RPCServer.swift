#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
import STOLJSON
import STOLProtocol
import STOLSupport

/// A JSON-RPC 2.0 server over a pair of file descriptors.
///
/// The server frames and routes. A dedicated thread reads and frames input; each request is looked
/// up once and runs in one task, after the earlier requests its method's `MethodOrdering` names;
/// its answer is sent when ready, so a slow request never holds up a fast one. Cancellation lives
/// in `InFlightRegistry`, ordering in `DependencyTracker`, envelopes in `Envelope`; one writer
/// thread owns the output.
public final class RPCServer: Sendable {
    typealias Work = Task<[UInt8]?, Never>

    struct State {
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

    let methods: MethodTable
    let options: Options
    let logger: Logger
    let state = Locked(State())
    let inFlight = InFlightRegistry()
    let dependencies = DependencyTracker()
    let exitCodes: AsyncStream<Int32>
    let exitContinuation: AsyncStream<Int32>.Continuation
    let output: OutputWriter
    let inputFD: Int32
    let ownsInput: Bool
    /// One slot per running request; the reader thread waits for a free one.
    let slots: DispatchSemaphore
    /// What the writer thread calls when the client closes stdout (set once `self` exists).
    let onBrokenPipe = Locked<(@Sendable () -> Void)?>(nil)
    let session = Locked<SessionControls?>(nil)

    /// Creates a server reading requests from `input` and writing messages to `output`; with
    /// `ownsInput` it closes `input` once it has read it to the end (a pipe made for it).
    public init(methods: MethodTable, options: Options, input: Int32, output: Int32, logger: Logger, ownsInput: Bool = false) {
        var table = options.dialect.standardLifecycle ? LifecycleMethods.table(options.identity) : MethodTable()
        table.merge(methods)
        self.methods = table
        self.options = options
        self.logger = logger
        self.inputFD = input
        self.ownsInput = ownsInput
        self.slots = DispatchSemaphore(value: max(1, options.limits.maxRunningRequests))
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
        let reader = InputReader(fd: inputFD, maxLineBytes: options.limits.maxMessageBytes, closesAtEnd: ownsInput)
        let output = self.output
        let budget = options.limits.outputBudgetBytes
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
            if !output.flush(timeout: options.limits.stopGracePeriod) { logger.warning("gave up writing the last answers: the client is not reading") }
        } else {
            output.flush()
        }
        output.close()
        return code
    }

    /// Sends a notification that answers no request, such as a change another process made.
    /// Safe from any thread; dropped once the server has finished.
    public func notify<N: RPCNotification>(_ notification: N) {
        guard !state.withLock({ $0.finished }) else { return }
        output.send(Envelope.notification(notification))
    }
}
