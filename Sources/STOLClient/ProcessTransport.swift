#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import STOLRPC
import STOLSupport

/// Spawns the `stol-engine` binary with Foundation's `Process` (macOS, Linux) and talks to it
/// over its stdin and stdout; its stderr (the log) is read too, and its last lines explain an
/// exit. The engine is given the app's process id, so it ends when the app does.
public struct ProcessTransport: EngineTransport {
    /// The binary.
    public var executable: URL
    /// Its arguments (`--data-dir`, `--database`, …); `serve` is the default command.
    public var arguments: [String]
    /// Its environment; the app's when nil.
    public var environment: [String: String]?

    public init(executable: URL, arguments: [String] = [], environment: [String: String]? = nil) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
    }

    public func start() throws -> EngineChannel {
        // A write to an engine that has died must fail with EPIPE, not end the app.
        signal(SIGPIPE, SIG_IGN)
        let stdin = try Self.makePipe(), stdout = try Self.makePipe(), stderr = try Self.makePipe()
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let childEnds = [stdin.read, stdout.write, stderr.write].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        process.standardInput = childEnds[0]
        process.standardOutput = childEnds[1]
        process.standardError = childEnds[2]
        let ending = ProcessEnding()
        process.terminationHandler = { ending.ended($0) }
        do {
            try process.run()
        } catch {
            for fd in [stdin.read, stdin.write, stdout.read, stdout.write, stderr.read, stderr.write] { close(fd) }
            throw STOLClientError.startFailed("\(executable.path): \(error.localizedDescription)")
        }
        // The child has its ends; the parent keeps only its own.
        for handle in childEnds { try? handle.close() }
        ending.readLog(from: stderr.read)
        let held = Locked<Process?>(process)
        return EngineChannel(
            input: stdin.write, output: stdout.read, processID: process.processIdentifier, watchedProcessID: getpid(),
            terminate: { held.withLock { $0 }.map { if $0.isRunning { kill($0.processIdentifier, SIGKILL) } } },
            exit: { await ending.wait() },
            release: {
                close(stdout.read)
                held.withLock { $0 = nil }
            })
    }

    /// A pipe whose ends the engine does not inherit (it gets only the copies made its stdio).
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw STOLClientError.startFailed("cannot make a pipe: \(String(cString: strerror(errno)))") }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return (fds[0], fds[1])
    }
}

/// How the spawned engine ended, and the tail of its log, for `EngineExit`.
private final class ProcessEnding: Sendable {
    private struct State {
        var exit: EngineExit.Cause?
        var logEnded = false
        var waiters: [CheckedContinuation<EngineExit, Never>] = []
        var log: [String] = []
    }

    private let state = Locked(State())

    func ended(_ process: Process) {
        let cause: EngineExit.Cause = process.terminationReason == .uncaughtSignal
            ? .signal(process.terminationStatus) : .exited(code: process.terminationStatus)
        state.withLock { $0.exit = cause }
        resumeIfDone()
    }

    /// Keeps the last lines of the engine's stderr (it must be read, or a chatty engine blocks).
    func readLog(from fd: Int32) {
        InputReader(fd: fd, maxLineBytes: 1 << 16).start(
            gate: {},
            onEvent: { [weak self] event, _ in
                guard case .line(let bytes) = event else { return }
                self?.state.withLock { s in
                    s.log.append(String(decoding: bytes, as: UTF8.self))
                    if s.log.count > 20 { s.log.removeFirst(s.log.count - 20) }
                }
            },
            onEnd: { [weak self] in
                close(fd)
                self?.state.withLock { $0.logEnded = true }
                self?.resumeIfDone()
            })
    }

    /// The exit, once the process has ended and its log has been read to the end.
    func wait() async -> EngineExit {
        await withCheckedContinuation { continuation in
            let done = state.withLock { s -> EngineExit? in
                guard let cause = s.exit, s.logEnded else {
                    s.waiters.append(continuation)
                    return nil
                }
                return EngineExit(cause: cause, log: s.log.joined(separator: "\n"))
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    private func resumeIfDone() {
        let (exit, waiters) = state.withLock { s -> (EngineExit?, [CheckedContinuation<EngineExit, Never>]) in
            guard let cause = s.exit, s.logEnded else { return (nil, []) }
            defer { s.waiters.removeAll() }
            return (EngineExit(cause: cause, log: s.log.joined(separator: "\n")), s.waiters)
        }
        if let exit { for waiter in waiters { waiter.resume(returning: exit) } }
    }
}
