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

// Lifetime: counting outstanding work, stopping, the end of input, and the parent process.

extension RPCServer {
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
        let grace = options.limits.stopGracePeriod
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

    /// Counts a unit of work (a request line or a batch) so that the end waits for it.
    func beginWork() {
        state.withLock { $0.outstanding += 1 }
    }

    /// Ends a unit of work; the last one out after end of input, `exit` or `stop` ends the server.
    func endWork() {
        let code: Int32? = state.withLock { s in
            s.outstanding -= 1
            guard s.outstanding == 0 else { return nil }
            return s.exitCode ?? (s.endOfInput ? 0 : nil)
        }
        if let code { finish(code) }
    }

    func inputEnded() {
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
    func finish(_ code: Int32) -> Bool {
        let (first, timer) = state.withLock { s -> (Bool, Task<Void, Never>?) in
            defer { s.finished = true }
            return (!s.finished, s.graceTimer)
        }
        timer?.cancel()
        if first { exitContinuation.yield(code) }
        return first
    }

    func watchParent(_ pid: Int32) {
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
