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

// Intake, on the reader thread: framing, parsing, batches, the messages handled inline
// ($/cancelRequest, exit, inline answers) and admission of the rest.

extension RPCServer {
    func receive(_ event: LineFramer.Event, read: Int) {
        // After `exit` or `stop` nothing more is read.
        if state.withLock({ $0.exitCode != nil }) { return }
        switch event {
        case .oversized(let size):
            logger.warning("skipped a message of \(size) bytes, over the \(options.limits.maxMessageBytes)-byte limit")
            let error = RPCError.kind(
                ErrorCode.invalidRequest, .messageTooLarge, "Message too large",
                ["limit": .integer(options.limits.maxMessageBytes), "size": .integer(size)])
            output.send(Envelope.response(id: .null, error: error))
        case .line(let bytes):
            receive(line: bytes, read: read)
        }
    }

    func receive(line: [UInt8], read: Int) {
        // A batch over the cap is refused before it is parsed: its values alone could take
        // many times the line's size.
        if let entries = BatchEntryCounter.count(line), entries > options.limits.maxBatchEntries {
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
            if let answer = answerInline(request, method: method, context: InlineContext(inputRead: read)) {
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
                return nil
            }
        }
    }

    /// Runs a batch: each request in it takes a running-request slot of its own, the answers of
    /// finished parts count against the output budget until the whole array is sent, and they
    /// are kept only while they fit in `maxBatchAnswerBytes` (`BatchAnswerBudget`).
    func receive(batch entries: [JSONValue]) {
        guard entries.count <= options.limits.maxBatchEntries else {
            refuseBatch(entries: entries.count)
            return
        }
        beginWork()
        let output = self.output, slots = self.slots
        let answers = BatchAnswerBudget(limit: options.limits.maxBatchAnswerBytes)
        var parts: [Work] = []
        func answerInBatch(_ bytes: [UInt8]) {
            output.reserve(bytes.count)
            parts.append(Task { bytes })
        }
        entries: for entry in entries {
            switch IncomingMessage(entry) {
            case .response:
                continue
            case let .invalid(id, error):
                answerInBatch(answers.admit(Envelope.response(id: id, error: error), id: id))
            case .request(let request):
                if handleInline(request) {
                    // Nothing after an `exit` is read, in this batch or later.
                    if state.withLock({ $0.exitCode != nil }) { break entries }
                    continue
                }
                // Once the batch's answers are full, its later requests are refused unrun.
                if let id = request.id, answers.isFull {
                    answerInBatch(answers.refusal(id: id))
                    continue
                }
                slots.wait()
                if let id = request.id, answers.isFull {
                    slots.signal()
                    answerInBatch(answers.refusal(id: id))
                    continue
                }
                let id = request.id ?? .null
                parts.append(start(request, method: methods[request.method]) { bytes in
                    slots.signal()
                    guard let bytes else { return nil }
                    // The part's task keeps only what the batch will send.
                    let kept = answers.admit(bytes, id: id)
                    output.reserve(kept.count)
                    return kept
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
    func refuseBatch(entries: Int) {
        logger.warning("refused a batch of \(entries) entries, over the \(options.limits.maxBatchEntries)-entry limit")
        let error = RPCError.kind(
            ErrorCode.invalidRequest, .batchTooLarge, "Batch too large",
            ["limit": .integer(options.limits.maxBatchEntries), "size": .integer(entries)])
        output.send(Envelope.response(id: .null, error: error))
    }

    /// Handles inline the messages whose effect must be ordered with input: cancellation and
    /// `exit`. Returns true when the message was consumed.
    func handleInline(_ request: Request) -> Bool {
        guard request.isNotification else { return false }
        if request.method == options.dialect.cancelNotification {
            if let raw = request.params?[options.dialect.cancelIDMember], let id = RequestID(raw), raw != .null {
                if inFlight.cancel(id: id) == 0 { logger.debug("cancel for \(id) ignored: no such request in flight") }
            }
            return true
        }
        if request.method == options.dialect.exitNotification {
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

    /// The answer of a request whose method can answer at once (`MethodTable.on(_:inline:_:)`),
    /// given on the intake thread without a task; nil when it must run as usual. Only requests
    /// with an id, no progress token and nothing to wait for qualify, and none once the server
    /// is stopping or shut down (those answers stay on the usual path).
    func answerInline(_ request: Request, method: MethodTable.Method?, context: InlineContext) -> [UInt8]? {
        guard let method, let answer = method.inline, let id = request.id else { return nil }
        let ordering = method.ordering(for: request.params)
        guard ordering.writes.isEmpty, !ordering.closesIntake,
              request.params?["_meta"] == nil,
              !state.withLock({ $0.stopping || $0.shutDown }),
              dependencies.waits(for: ordering).isEmpty,
              let result = answer(request.params, context)
        else { return nil }
        return Envelope.response(id: id, result: result)
    }

    /// Starts a request's one task, after what its ordering makes it wait for. The response bytes
    /// (nil for a notification) are handed to `deliver` when ready; the task's value is what
    /// `deliver` returns (a batch keeps its parts' answers there; a single request keeps nothing).
    @discardableResult
    func start(_ request: Request, method: MethodTable.Method?, deliver: @escaping @Sendable ([UInt8]?) -> [UInt8]?) -> Work {
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
            let kept = deliver(request.id.map { Envelope.response(id: $0, error: refusal) })
            return Task { kept }
        }
        let waits = ordering.closesIntake ? inFlight.running : dependencies.waits(for: ordering)
        inFlight.add(serial: serial, id: request.id)
        let work = Task { [self] in
            for earlier in waits { _ = await earlier.value }
            let bytes = await execute(request, method: method)
            // Delivered before the request leaves the registry: a `shutdown` read meanwhile
            // either waits for this task or finds its answer already sent.
            let kept = deliver(bytes)
            inFlight.remove(serial: serial)
            dependencies.finished(serial: serial, ordering: ordering)
            return kept
        }
        dependencies.started(work, serial: serial, ordering: ordering)
        inFlight.attach(work, serial: serial)
        return work
    }
}
