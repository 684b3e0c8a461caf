#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import STOLJSON
import STOLProtocol
import STOLTestSupport
import Synchronization

/// The real `stol-engine` binary as a child process, over real pipes: requests built from the
/// protocol's contracts (`send`, `result`, `call`), raw lines for what no contract can say
/// (`sendLine`), and every output line kept for the test to read (`next`).
final class EngineProcess: Sendable {
    let process: Process
    let dataDirectory: URL
    /// Whether this harness made `dataDirectory` (and so removes it); a caller's stays.
    private let ownsDataDirectory: Bool
    private let stdinFD: Int32
    private let stdout: LineCollector
    private let stderr: LineCollector
    private let nextID = Mutex(0)

    /// No answer came in time.
    struct NoAnswer: Error, CustomStringConvertible {
        var method: String
        var description: String { "no answer to \(method)" }
    }

    /// Starts the engine with `arguments` (a fresh data directory is added unless one is given).
    init(_ arguments: [String] = [], dataDirectory: URL? = nil) throws {
        // A test writing to an engine that has died must see EPIPE, not die of SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let data = dataDirectory ?? EngineBinary.temporaryDirectory("stol-e2e")
        self.dataDirectory = data
        self.ownsDataDirectory = dataDirectory == nil && !arguments.contains("--data-dir")
        let process = Process()
        process.executableURL = EngineBinary.url
        process.arguments = arguments.contains("--data-dir") ? arguments : arguments + ["--data-dir", data.path]
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        self.process = process
        self.stdinFD = input.fileHandleForWriting.fileDescriptor
        stdout = LineCollector(fd: output.fileHandleForReading.fileDescriptor)
        stderr = LineCollector(fd: error.fileHandleForReading.fileDescriptor)
    }

    // MARK: Through the contracts

    /// Sends `request` and returns its typed answer; an error answer is thrown as its `RPCError`.
    func send<R: RPCRequest>(_ request: R, timeout: Duration = .seconds(30)) async throws -> R.Response {
        guard let response = await call(request, timeout: timeout) else { throw NoAnswer(method: R.method) }
        if let error = response["error"] { throw try JSONValueDecoder().decode(RPCError.self, from: error) }
        return try JSONValueDecoder().decode(R.Response.self, from: response["result"] ?? .null)
    }

    /// The result of `request` as the engine wrote it, or nil when it failed: for checks of the
    /// wire form (a member absent or null, the exact numbers).
    func result<R: RPCRequest>(_ request: R, timeout: Duration = .seconds(30)) async -> JSONValue? {
        await call(request, timeout: timeout)?["result"]
    }

    /// Sends `request` with a fresh id (with `progressToken` in `params._meta` when given) and
    /// waits for its whole response message; other lines are kept for `next`.
    func call<R: RPCRequest>(_ request: R, progressToken: JSONValue? = nil, timeout: Duration = .seconds(30)) async -> JSONValue? {
        let id = JSONValue.integer(nextID.withLock { $0 += 1; return $0 })
        sendRequest(request, id: id, progressToken: progressToken)
        return await next(timeout: timeout) { $0["id"] == id }
    }

    /// `R`'s method with params no contract value can hold (a wrong type, a number out of every
    /// range): for the tests of how the engine refuses them.
    func call<R: RPCRequest>(_ contract: R.Type, params: JSONValue?, timeout: Duration = .seconds(30)) async -> JSONValue? {
        let id = nextID.withLock { $0 += 1; return $0 }
        var message: [(key: String, value: JSONValue)] = [("jsonrpc", "2.0"), ("id", .integer(id)), ("method", .string(R.method))]
        if let params { message.append(("params", params)) }
        sendLine(JSONValue.object(message).description)
        return await next(timeout: timeout) { $0["id"] == .integer(id) }
    }

    /// Writes `request` with the id `id` and returns at once, for tests that send several
    /// requests before reading (their answers are read with `next`).
    func sendRequest<R: RPCRequest>(_ request: R, id: JSONValue, progressToken: JSONValue? = nil) {
        sendLine(RequestLine.encode(request, id: id, progressToken: progressToken))
    }

    /// Sends a notification.
    func notify<N: RPCNotification>(_ notification: N) {
        sendLine(RequestLine.encode(notification))
    }

    // MARK: Raw

    /// Writes `line` and a newline, as they are.
    func sendLine(_ line: String) { sendBytes(Array((line + "\n").utf8)) }

    func sendBytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(stdinFD, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { return }
                offset += n
            }
        }
    }

    func closeStdin() { close(stdinFD) }

    /// The first output message matching `where`, removed from the buffer; nil after `timeout`.
    func next(timeout: Duration = .seconds(30), where matches: @escaping @Sendable (JSONValue) -> Bool = { _ in true }) async -> JSONValue? {
        await stdout.next(timeout: timeout, where: matches)
    }

    /// Every complete stdout line received and not yet taken.
    var pendingLines: [String] { stdout.pendingLines }

    /// Removes and returns every complete stdout line received so far, for tests that read
    /// thousands of answers (`next` parses the whole buffer on every call).
    func takeLines() -> [String] { stdout.takeLines() }

    /// What the engine wrote to stderr (its log).
    var stderrText: String { stderr.pendingLines.joined(separator: "\n") }

    /// Waits for the process to end; nil if it is still running after `timeout`.
    func waitForExit(timeout: Duration = .seconds(20)) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { process.terminate() }
        if ownsDataDirectory { try? FileManager.default.removeItem(at: dataDirectory) }
    }
}

/// Resident memory of a process, from `/proc/PID/status` (Linux only).
enum ProcessMemory {
    /// `VmRSS` and `VmHWM` (the kernel's own peak of VmRSS) in KiB; nil when unreadable.
    static func read(_ pid: Int32) -> (rss: Int, peak: Int)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int? {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return nil }
            return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "")
        }
        guard let rss = field("VmRSS"), let peak = field("VmHWM") else { return nil }
        return (rss, peak)
    }
}

/// CPU time a process has used, from `/proc/PID/stat` (Linux only).
enum ProcessCPU {
    /// User and system time in clock ticks; 0 when unreadable.
    static func ticks(_ pid: Int32) -> Int {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ") ?? []
        return stat.count > 15 ? (Int(stat[13]) ?? 0) + (Int(stat[14]) ?? 0) : 0
    }

    /// Waits until the process has used no CPU for `quiet` (what it could run has run), or
    /// `timeout` has passed; returns how long that took.
    static func waitUntilIdle(_ pid: Int32, quiet: Duration = .seconds(1), timeout: Duration) async throws -> Duration {
        let started = ContinuousClock.now
        var quietSince = ContinuousClock.now
        var last = ticks(pid)
        while ContinuousClock.now - quietSince < quiet, ContinuousClock.now - started < timeout {
            try await Task.sleep(for: .milliseconds(250))
            let now = ticks(pid)
            if now != last { quietSince = ContinuousClock.now }
            last = now
        }
        return ContinuousClock.now - started
    }
}

/// Samples a process's VmRSS on a thread of its own every `interval`, so a test sees the memory
/// curve while it is busy elsewhere (VmHWM alone gives the peak, not when it happened).
final class MemorySampler: Sendable {
    private final class State: Sendable {
        let samples = Mutex<[(at: Duration, rssKiB: Int)]>([])
        let running = Mutex(true)
    }

    private let state = State()

    init(pid: Int32, interval: Duration = .milliseconds(20)) {
        let start = ContinuousClock.now
        let state = self.state
        let micros = useconds_t(interval.components.seconds * 1_000_000 + interval.components.attoseconds / 1_000_000_000_000)
        Thread {
            while state.running.withLock({ $0 }) {
                if let memory = ProcessMemory.read(pid) {
                    state.samples.withLock { $0.append((ContinuousClock.now - start, memory.rss)) }
                }
                usleep(micros)
            }
        }.start()
    }

    /// Stops sampling; the samples taken stay readable.
    func stop() { state.running.withLock { $0 = false } }

    /// Every sample so far: time since start and VmRSS in KiB.
    var all: [(at: Duration, rssKiB: Int)] { state.samples.withLock { $0 } }

    /// The largest VmRSS sampled, in KiB (0 before the first sample).
    var peakKiB: Int { state.samples.withLock { $0.map(\.rssKiB).max() ?? 0 } }

    deinit { stop() }
}
