#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import STOLRPC
import STOLJSON
import STOLProtocol
import STOLTestSupport

/// The real `stol-engine` binary as a child process, over real pipes.
final class EngineProcess: Sendable {
    private final class Buffers: Sendable {
        let lines = Mutex<[String]>([])
        let rawStdout = Mutex<[UInt8]>([])
        let stderr = Mutex<[UInt8]>([])
    }

    let process: Process
    let dataDirectory: URL
    /// Whether this harness made `dataDirectory` (and so removes it); a caller's stays.
    private let ownsDataDirectory: Bool
    private let stdinFD: Int32
    private let buffers = Buffers()
    private let nextID = Mutex(0)

    /// Starts the engine with `arguments` (a fresh data directory is added unless one is given).
    init(_ arguments: [String] = [], dataDirectory: URL? = nil) throws {
        // A test writing to an engine that has died must see EPIPE, not die of SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let data = dataDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("stol-e2e-\(UUID().uuidString)")
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
        let buffers = self.buffers
        Self.drain(output.fileHandleForReading.fileDescriptor) { chunk in
            buffers.rawStdout.withLock { $0 += chunk }
            buffers.lines.withLock { lines in
                buffers.rawStdout.withLock { raw in
                    while let nl = raw.firstIndex(of: 0x0A) {
                        lines.append(String(decoding: raw[..<nl], as: UTF8.self))
                        raw.removeSubrange(...nl)
                    }
                }
            }
        }
        Self.drain(error.fileHandleForReading.fileDescriptor) { chunk in buffers.stderr.withLock { $0 += chunk } }
    }

    private static func drain(_ fd: Int32, _ sink: @escaping @Sendable ([UInt8]) -> Void) {
        let thread = Thread {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 65536) }
                if n <= 0 { break }
                sink(Array(chunk[0..<n]))
            }
        }
        thread.start()
    }

    func send(_ line: String) { sendBytes(Array((line + "\n").utf8)) }

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

    /// Sends a request with a fresh id and waits for its response (other lines are kept for `next`).
    func call(_ method: String, _ params: JSONValue? = nil, timeout: Duration = .seconds(30)) async -> JSONValue? {
        let id = nextID.withLock { $0 += 1; return $0 }
        var message: [(key: String, value: JSONValue)] = [("jsonrpc", "2.0"), ("id", .integer(id)), ("method", .string(method))]
        if let params { message.append(("params", params)) }
        send(JSONValue.object(message).description)
        return await next(timeout: timeout) { $0["id"] == .integer(id) }
    }

    /// The result of `method`, or nil when it failed.
    func result(_ method: String, _ params: JSONValue? = nil) async -> JSONValue? {
        await call(method, params)?["result"]
    }

    /// The first output message matching `where`, removed from the buffer; nil after `timeout`.
    func next(timeout: Duration = .seconds(30), where matches: @escaping @Sendable (JSONValue) -> Bool = { _ in true }) async -> JSONValue? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let found: JSONValue? = buffers.lines.withLock { lines in
                for (i, line) in lines.enumerated() {
                    guard let value = try? JSONParser.parse(Array(line.utf8)), matches(value) else { continue }
                    lines.remove(at: i)
                    return value
                }
                return nil
            }
            if let found { return found }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return nil
    }

    /// Every complete stdout line received and not yet taken.
    var pendingLines: [String] { buffers.lines.withLock { $0 } }

    /// Removes and returns every complete stdout line received so far, for tests that read
    /// thousands of answers (`next` parses the whole buffer on every call).
    func takeLines() -> [String] {
        buffers.lines.withLock { lines in
            defer { lines.removeAll(keepingCapacity: true) }
            return lines
        }
    }

    var stderrText: String { String(decoding: buffers.stderr.withLock { $0 }, as: UTF8.self) }

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
