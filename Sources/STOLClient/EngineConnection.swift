import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLSupport

/// One running engine: requests written through one writer thread, messages read on one reader
/// thread, answers matched to their requests by id. When the engine ends, every call still
/// waiting fails with how it ended.
final class EngineConnection: Sendable {
    private struct Pending {
        var continuation: CheckedContinuation<JSONValue, any Error>
        var progress: (@Sendable (WorkProgress) -> Void)?
        /// Written to the engine (a cancel may follow it only then).
        var sent = false
        var cancelRequested = false
    }

    private struct State {
        var nextID = 0
        var pending: [Int: Pending] = [:]
        /// Calls cancelled before they were registered.
        var cancelledEarly: Set<Int> = []
        /// Set once the engine has ended: every later call fails with it.
        var ended: STOLClientError?
        /// How it ended, once every pending call has failed.
        var exit: EngineExit?
        var exitWaiters: [CheckedContinuation<EngineExit, Never>] = []
        /// The engine's input is closed (by `closeInput` or at the end), exactly once.
        var inputClosed = false
    }

    let channel: EngineChannel
    private let writer: OutputWriter
    private let hub: NotificationHub
    private let state = Locked(State())

    init(channel: EngineChannel, hub: NotificationHub) {
        self.channel = channel
        self.hub = hub
        // A write that fails means the engine is gone; its output's end, read next, says so.
        writer = OutputWriter(fd: channel.input) {}
        InputReader(fd: channel.output, maxLineBytes: Int.max).start(
            gate: {},
            onEvent: { [weak self] event, _ in
                guard case .line(let bytes) = event, let value = try? JSONParser.parse(bytes) else { return }
                self?.receive(ServerMessage(value))
            },
            onEnd: { [weak self] in self?.engineEnded() })
    }

    /// Sends `method` with already encoded `params` and returns its result; fails with the
    /// engine's `RPCError`, with `CancellationError` when the calling task was cancelled and the
    /// engine confirmed it, or with how the engine ended.
    func call(method: String, params: [UInt8]?, progress: (@Sendable (WorkProgress) -> Void)? = nil) async throws -> JSONValue {
        try Task.checkCancellation()
        let id = state.withLock { s -> Int in
            s.nextID += 1
            return s.nextID
        }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONValue, any Error>) in
                    let failure = state.withLock { s -> (any Error)? in
                        if let ended = s.ended { return ended }
                        s.pending[id] = Pending(continuation: continuation, progress: progress)
                        return nil
                    }
                    if let failure {
                        continuation.resume(throwing: failure)
                        return
                    }
                    writer.send(Self.request(id: id, method: method, params: params, progressToken: progress == nil ? nil : .integer(id)))
                    let cancelNow = state.withLock { s -> Bool in
                        s.pending[id]?.sent = true
                        return s.pending[id]?.cancelRequested == true || s.cancelledEarly.remove(id) != nil
                    }
                    if cancelNow { sendCancel(id) }
                }
            } onCancel: {
                let sendNow = state.withLock { s -> Bool in
                    guard s.pending[id] != nil else {
                        s.cancelledEarly.insert(id)
                        return false
                    }
                    s.pending[id]?.cancelRequested = true
                    return s.pending[id]?.sent == true
                }
                if sendNow { sendCancel(id) }
            }
        } catch let error as RPCError where error.code == ErrorCode.requestCancelled && Task.isCancelled {
            throw CancellationError()
        }
    }

    /// Sends a notification.
    func notify(method: String, params: [UInt8]?) throws {
        if let ended = state.withLock({ $0.ended }) { throw ended }
        writer.send(Envelope.notification(method: method, rawParams: params))
    }

    /// Says that no more requests follow: the engine answers what it has and ends.
    func closeInput() async {
        await closeInput(waitingUpTo: .seconds(5))
    }

    /// Writes what is queued (or gives up after `timeout`), stops the writer and closes the
    /// engine's input, once: the writer thread is done with it before it closes.
    private func closeInput(waitingUpTo timeout: Duration) async {
        guard state.withLock({ s -> Bool in
            defer { s.inputClosed = true }
            return !s.inputClosed
        }) else { return }
        let writer = self.writer, input = channel.input
        _ = try? await OffPool.run {
            writer.flush(timeout: timeout)
            writer.close()
            close(input)
        }
    }

    /// Waits until the engine has ended and every pending call has failed; how it ended.
    func waitUntilEnded() async -> EngineExit {
        await withCheckedContinuation { continuation in
            let exit = state.withLock { s -> EngineExit? in
                if s.exit == nil { s.exitWaiters.append(continuation) }
                return s.exit
            }
            if let exit { continuation.resume(returning: exit) }
        }
    }

    private func sendCancel(_ id: Int) {
        writer.send(Envelope.notification(method: CancelRequestNotification.method, params: .object(["id": .integer(id)])))
    }

    /// `{"jsonrpc":"2.0","id":…,"method":…,"params":…}`; params that are `{}` are left out, and a
    /// progress token goes into `params._meta`.
    private static func request(id: Int, method: String, params: [UInt8]?, progressToken: JSONValue?) -> [UInt8] {
        var params = params
        if params == Array("{}".utf8) { params = nil }
        if let progressToken {
            var members: [(key: String, value: JSONValue)] = []
            if let params, case .object(let own)? = try? JSONParser.parse(params) { members = own }
            members.append((key: "_meta", value: .object(["progressToken": progressToken])))
            params = JSONWriter.encode(.object(members))
        }
        var out = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
        out.append(contentsOf: String(id).utf8)
        out.append(contentsOf: #","method":"#.utf8)
        JSONWriter.writeString(method, into: &out)
        if let params {
            out.append(contentsOf: #","params":"#.utf8)
            out.append(contentsOf: params)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// On the reader thread: an answer resumes its call; progress goes to its call's handler;
    /// other notifications go to the client's listeners.
    private func receive(_ message: ServerMessage) {
        switch message {
        case let .response(id, outcome):
            guard case .number(let text) = id, let number = Int(text),
                  let pending = state.withLock({ $0.pending.removeValue(forKey: number) }) else { return }
            pending.continuation.resume(with: outcome.mapError { $0 })
        case let .notification(method, params):
            if method == ProgressNotification.method, let params,
               let progress = try? JSONValueDecoder().decode(ProgressNotification.self, from: params) {
                if let id = progress.token.int64Value.map(Int.init), let handler = state.withLock({ $0.pending[id]?.progress }) { handler(progress.value) }
                return
            }
            hub.deliver(method: method, params: params)
        case .other:
            break
        }
    }

    /// The engine stopped writing (it ended, or closed its output): once it has ended, every
    /// call still waiting fails with how it ended. An engine that closed its output but runs on
    /// is ended after a few seconds.
    private func engineEnded() {
        let first = state.withLock { s -> Bool in
            guard s.ended == nil else { return false }
            s.ended = .engineExited(EngineExit(cause: .exited(code: -1)))
            return true
        }
        guard first else { return }
        let channel = self.channel
        Task {
            let grace = Task {
                guard (try? await Task.sleep(for: .seconds(5))) != nil else { return }
                channel.terminate()
            }
            let exit = await channel.exit()
            grace.cancel()
            let waiting = state.withLock { s -> [Pending] in
                s.ended = .engineExited(exit)
                defer { s.pending.removeAll() }
                return Array(s.pending.values)
            }
            for pending in waiting { pending.continuation.resume(throwing: STOLClientError.engineExited(exit)) }
            await closeInput(waitingUpTo: .seconds(1))
            channel.release()
            let waiters = state.withLock { s -> [CheckedContinuation<EngineExit, Never>] in
                s.exit = exit
                defer { s.exitWaiters.removeAll() }
                return s.exitWaiters
            }
            for waiter in waiters { waiter.resume(returning: exit) }
        }
    }
}
