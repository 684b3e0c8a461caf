#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLTestSupport
import Synchronization
import Testing

/// A client that stops reading stdout for a sustained period while it keeps sending requests
/// with large answers: the engine stops reading once its output budget is full, its memory stays
/// put instead of growing, a cancel still takes effect, and every answer arrives exactly once.
@Suite(.serialized) struct BackpressureTests {
    /// The engine's output budget (`RPCServer.Options.outputBudgetBytes`): intake pauses while
    /// more response bytes than this wait for the client.
    static let budgetBytes = 16 << 20
    /// How long the client does not read; `STOL_BACKPRESSURE_SECONDS` changes it.
    static var pauseSeconds: Int { Int(ProcessInfo.processInfo.environment["STOL_BACKPRESSURE_SECONDS"] ?? "") ?? 6 }

    /// The engine on raw pipes: the test decides when stdout is read, and sees how much of what
    /// it wrote the engine has taken from stdin.
    final class RawEngine: Sendable {
        private final class State: Sendable {
            let reading = Mutex(true)
            let lines = Mutex<[String]>([])
            let written = Mutex(0)
        }

        let process: Process
        let data: URL
        private let stdinFD: Int32
        private let state = State()

        /// Starts the engine with `arguments` on `dataDirectory` (a fresh one by default); the
        /// data directory is removed when the engine is released.
        init(_ arguments: [String], dataDirectory: URL? = nil) throws {
            signal(SIGPIPE, SIG_IGN)
            data = dataDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("stol-backpressure-\(UUID().uuidString)")
            process = Process()
            process.executableURL = EngineBinary.url
            process.arguments = arguments + ["--data-dir", data.path]
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            stdinFD = input.fileHandleForWriting.fileDescriptor
            let fd = output.fileHandleForReading.fileDescriptor
            let state = self.state
            // Reads only while `reading` is set; polls first, so a paused client really leaves
            // the engine's output in the pipe.
            Thread {
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                var partial: [UInt8] = []
                while true {
                    guard state.reading.withLock({ $0 }) else { usleep(5_000); continue }
                    var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    guard poll(&pfd, 1, 5) > 0 else { continue }
                    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 1 << 16) }
                    if n <= 0 { break }
                    partial.append(contentsOf: chunk[0..<n])
                    // memchr and whole-buffer decoding: this reads about 100 MB in a debug build.
                    var complete: [String] = []
                    let consumed = partial.withUnsafeBufferPointer { buffer -> Int in
                        var start = 0
                        while start < buffer.count, let hit = memchr(buffer.baseAddress! + start, 0x0A, buffer.count - start) {
                            let nl = buffer.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                            complete.append(String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<nl]), as: UTF8.self))
                            start = nl + 1
                        }
                        return start
                    }
                    partial.removeFirst(consumed)
                    if !complete.isEmpty { state.lines.withLock { $0 += complete } }
                }
            }.start()
        }

        /// Writes `bytes` on a thread of its own (the engine may stop taking them), counting
        /// what it has taken.
        func sendInBackground(_ bytes: [UInt8]) {
            let fd = stdinFD, state = self.state
            Thread {
                var offset = 0
                while offset < bytes.count {
                    let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, min(4096, bytes.count - offset)) }
                    if n <= 0 { return }
                    offset += n
                    state.written.withLock { $0 = offset }
                }
            }.start()
        }

        var bytesTaken: Int { state.written.withLock { $0 } }

        func setReading(_ on: Bool) { state.reading.withLock { $0 = on } }

        func takeLines() -> [String] { state.lines.withLock { lines in defer { lines = [] }; return lines } }

        func closeStdin() { close(stdinFD) }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(at: data)
        }
    }

    /// Byte equality (String's `==` compares Unicode canonical equivalence, which is slow on
    /// megabytes of non-ASCII text).
    static func same(_ text: Substring, _ bytes: [UInt8]) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            utf8.count == bytes.count && bytes.withUnsafeBufferPointer { memcmp(utf8.baseAddress!, $0.baseAddress!, bytes.count) == 0 }
        }
    }

    /// `request` as one line of the protocol, with `id`.
    static func line(_ id: JSONValue, _ request: some RPCRequest) -> String {
        RequestLine.encode(request, id: id) + "\n"
    }

    @Test func aClientThatStopsReadingHoldsTheEngineAtItsBudget() async throws {
        let started = ContinuousClock.now
        let engine = try RawEngine(["--conformance-methods", "--log-level", "error"])
        let pid = engine.process.processIdentifier
        let bundled = EngineBinary.repositoryRoot.appendingPathComponent("Sources/STOLEngine/Resources/default.sqlite")
        let parents = try ["Aves", "Passeriformes", "Magnoliopsida", "Mammalia"].map { name in
            try #require(Int64(try SQLiteCLI.run(bundled, "SELECT id FROM taxa WHERE scientific_name = '\(name)'", readOnly: true).first ?? ""), "\(name)")
        }
        // Large answers: the OpenRPC document (about 55 KB), search pages of 10–30 KB, child pages.
        var kinds: [any RPCRequest] = [DiscoverRequest()]
        for query in ["lo", "te", "sea", "ro", "sp", "ar"] { kinds.append(SearchQueryRequest(query: query, limit: 1000)) }
        for parent in parents { kinds.append(TaxonChildrenRequest(id: parent, limit: 1000)) }

        // Warm up and learn each request's answer (the bytes after the id).
        var answerOf: [Int: String] = [:]
        engine.sendInBackground(Array(kinds.indices.map { Self.line(.integer(900_000 + $0), kinds[$0]) }.joined().utf8))
        let warmDeadline = ContinuousClock.now + .seconds(60)
        while answerOf.count < kinds.count, ContinuousClock.now < warmDeadline {
            for line in engine.takeLines() {
                if let (id, body) = LoadTests.split(line) { answerOf[id - 900_000] = String(body) }
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        try #require(answerOf.count == kinds.count)
        let expectedBytes = kinds.indices.map { Array(answerOf[$0]!.utf8) }
        #expect(answerOf.values.allSatisfy { $0.hasPrefix(#","result":"#) })
        try await Task.sleep(for: .milliseconds(300))
        let idleKiB = try #require(ProcessMemory.read(pid)).rss

        // The flood: mostly the OpenRPC document, one search in twenty, the rest child pages.
        func kind(_ i: Int) -> Int {
            if i % 20 == 7 { return 1 + (i / 20) % 6 }
            return i % 2 == 0 ? 0 : 7 + (i / 2) % parents.count
        }
        func answerBytes(_ range: Range<Int>) -> Int { range.reduce(0) { $0 + expectedBytes[kind($1)].count } }
        // Part one answers less than the budget in total, so the engine must read the cancel
        // that follows it before it can pause; part two is far over the budget.
        var firstPart = 0
        while answerBytes(0..<(firstPart + 1)) < Self.budgetBytes * 3 / 4 { firstPart += 1 }
        let total = firstPart + 4_000
        var stream = Self.line("sleepA", SleepRequest(ms: 60_000)) + Self.line("sleepB", SleepRequest(ms: 60_000))
        for i in 0..<firstPart { stream += Self.line(.integer(i), kinds[kind(i)]) }
        stream += RequestLine.encode(CancelRequestNotification(id: .string("sleepA"))) + "\n"
        for i in firstPart..<total { stream += Self.line(.integer(i), kinds[kind(i)]) }
        stream += RequestLine.encode(CancelRequestNotification(id: .string("sleepB"))) + "\n"
        let streamBytes = Array(stream.utf8)
        let floodAnswerBytes = answerBytes(0..<total)

        // Stop reading, send everything, and watch for a sustained period.
        engine.setReading(false)
        try await Task.sleep(for: .milliseconds(50))
        _ = engine.takeLines()
        let sampler = MemorySampler(pid: pid)
        let pauseStarted = ContinuousClock.now
        engine.sendInBackground(streamBytes)
        // First the engine takes input until its budget is full; wait until it has taken nothing
        // for a second, then hold the client still for the sustained period.
        var settled = (bytes: -1, since: ContinuousClock.now)
        while ContinuousClock.now - settled.since < .seconds(1) {
            try #require(ContinuousClock.now - pauseStarted < .seconds(60), "the engine kept taking input for 60 s")
            try await Task.sleep(for: .milliseconds(100))
            let now = engine.bytesTaken
            if now != settled.bytes { settled = (now, ContinuousClock.now) }
        }
        let settleTime = settled.since - pauseStarted
        let windowStart = ContinuousClock.now - pauseStarted
        try await Task.sleep(for: .seconds(Self.pauseSeconds))
        let pauseSamples = sampler.all
        let takenDuringPause = engine.bytesTaken
        #expect(engine.process.isRunning)
        #expect(takenDuringPause < streamBytes.count, "the engine stopped reading its input (took \(takenDuringPause) of \(streamBytes.count) bytes)")
        #expect(takenDuringPause == settled.bytes, "intake stayed paused for \(Self.pauseSeconds) s (\(settled.bytes) → \(takenDuringPause) bytes)")

        // Memory: bounded by the budget plus the answers to what the engine had already read when
        // the budget filled (see the report), and flat while paused.
        let peakPausedKiB = pauseSamples.map(\.rssKiB).max() ?? 0
        let middle = windowStart + .seconds(Self.pauseSeconds) / 2
        let firstHalf = pauseSamples.filter { $0.at >= windowStart && $0.at < middle }.map(\.rssKiB).max() ?? 0
        let secondHalf = pauseSamples.filter { $0.at >= middle }.map(\.rssKiB).max() ?? 0
        // Requests the engine itself read (the pipe holds up to 64 KiB of the rest), and their answers.
        let requestBytes = streamBytes.count / (total + 4)
        let readRequests = (max(0, takenDuringPause - 65_536) / requestBytes, takenDuringPause / requestBytes)
        let committedKiB = (answerBytes(0..<min(total, readRequests.0)) / 1024, answerBytes(0..<min(total, readRequests.1)) / 1024)
        let ceilingKiB = idleKiB + Self.budgetBytes / 1024 + 96 * 1024
        #expect(peakPausedKiB < ceilingKiB, "peak VmRSS while paused \(peakPausedKiB) KiB, ceiling idle + budget + 96 MiB = \(ceilingKiB) KiB")
        #expect(secondHalf <= firstHalf + 8 * 1024, "no growth while paused: \(firstHalf) KiB, then \(secondHalf) KiB")

        // Read again: everything arrives exactly once, and both sleeps were cancelled.
        engine.setReading(true)
        let resumed = ContinuousClock.now
        var seen = [Bool](repeating: false, count: total)
        var count = 0
        var sleeps: [String: JSONValue] = [:]
        var failures: [String] = []
        var lastProgress = ContinuousClock.now
        while count < total || sleeps.count < 2 {
            let lines = engine.takeLines()
            if lines.isEmpty {
                if ContinuousClock.now - lastProgress > .seconds(60) { failures.append("no answer for 60 s: \(count)/\(total), sleeps \(sleeps.keys)"); break }
                try await Task.sleep(for: .milliseconds(2))
                continue
            }
            lastProgress = ContinuousClock.now
            for line in lines {
                if let (id, body) = LoadTests.split(line) {
                    guard id >= 0, id < total, !seen[id] else { failures.append("unexpected or repeated id \(id)"); continue }
                    seen[id] = true
                    count += 1
                    if !Self.same(body, expectedBytes[kind(id)]) { failures.append("#\(id) (\(type(of: kinds[kind(id)]).method)) answered differently: \(body.prefix(200))") }
                } else if let message = try? JSONParser.parse(Array(line.utf8)), let id = message["id"]?.stringValue, id.hasPrefix("sleep"), sleeps[id] == nil {
                    sleeps[id] = message
                } else {
                    failures.append("unexpected line: \(line.prefix(200))")
                }
            }
        }
        let drained = ContinuousClock.now - resumed
        for failure in failures.prefix(20) { Issue.record(Comment(rawValue: failure)) }
        #expect(failures.isEmpty)
        #expect(count == total && seen.allSatisfy { $0 }, "answered \(count) of \(total)")
        for id in ["sleepA", "sleepB"] {
            #expect(sleeps[id]?["error"]?["code"] == .integer(-32800), "\(id) was cancelled: \(String(describing: sleeps[id]))")
        }
        #expect(engine.bytesTaken == streamBytes.count)
        try await Task.sleep(for: .milliseconds(200))
        #expect(engine.takeLines().isEmpty, "nothing after the last answer")
        sampler.stop()
        let hwmKiB = ProcessMemory.read(pid)?.peak ?? 0
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ") ?? []
        let cpuSeconds = stat.count > 15 ? Double((Int(stat[13]) ?? 0) + (Int(stat[14]) ?? 0)) / Double(sysconf(Int32(_SC_CLK_TCK))) : 0
        engine.closeStdin()
        let deadline = ContinuousClock.now + .seconds(30)
        while engine.process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!engine.process.isRunning && engine.process.terminationStatus == 0)
        print("""
            BackpressureTests: \(total) requests with \(floodAnswerBytes / 1024) KiB of answers (part one \(firstPart) requests, \
            \(answerBytes(0..<firstPart) / 1024) KiB) + 2 sleeps + 2 cancels, \(streamBytes.count) bytes of input; client not \
            reading: intake stopped after \(settleTime), then held \(Self.pauseSeconds) s; engine took \(takenDuringPause) input \
            bytes, i.e. read \(readRequests.0)–\(readRequests.1) requests whose answers are \(committedKiB.0)–\(committedKiB.1) KiB; VmRSS idle \(idleKiB) KiB, peak while paused \(peakPausedKiB) KiB (first half \
            \(firstHalf), second half \(secondHalf); ceiling \(ceilingKiB)), VmHWM over the run \(hwmKiB) KiB; \
            drained in \(drained); engine CPU \(cpuSeconds) s; \(ContinuousClock.now - started) in all
            """)
    }

    /// Slow requests with large answers: the budget sees their answers only once written, so
    /// intake also pauses while 64 request lines run. Memory then stays near idle + budget +
    /// 64 answers, however much the client sends (before the cap it grew with the flood).
    @Test func requestsAlreadyReadCountAgainstTheBudget() async throws {
        let engine = try RawEngine(["--log-level", "error"])
        let pid = engine.process.processIdentifier
        let search = Self.line(.integer(0), SearchQueryRequest(query: "a", limit: 1000))
        engine.sendInBackground(Array(search.utf8))
        var answer: String? = nil
        let deadline = ContinuousClock.now + .seconds(60)
        while answer == nil, ContinuousClock.now < deadline {
            answer = engine.takeLines().first
            try await Task.sleep(for: .milliseconds(5))
        }
        let answerSize = try #require(answer).utf8.count
        let idleKiB = try #require(ProcessMemory.read(pid)).rss
        engine.setReading(false)
        try await Task.sleep(for: .milliseconds(50))

        // 5,000 of them: about 420 KB of input, about 900 MB of answers.
        let count = 5_000
        let stream = Array((1...count).map { Self.line(.integer($0), SearchQueryRequest(query: "a", limit: 1000)) }.joined().utf8)
        let sampler = MemorySampler(pid: pid, interval: .milliseconds(50))
        engine.sendInBackground(stream)
        // Wait until the running searches have ended (no CPU used for 1 s; slow on a debug build),
        // then watch 3 s more: with intake paused nothing else may happen.
        let settled = try await ProcessCPU.waitUntilIdle(pid, timeout: .seconds(90))
        let settledKiB = try #require(ProcessMemory.read(pid)).rss
        try await Task.sleep(for: .seconds(3))
        let laterKiB = try #require(ProcessMemory.read(pid)).rss
        let taken = engine.bytesTaken
        sampler.stop()
        // Budget + the running answers (each built once as a value and once as bytes) + slack.
        let ceilingKiB = idleKiB + (Self.budgetBytes + 64 * 2 * answerSize) / 1024 + 64 * 1024
        print("""
            BackpressureTests: \(count) × search/query "a" limit 1000 (\(answerSize) bytes each), client not reading: \
            the engine took \(taken) of \(stream.count) input bytes and went idle after \(settled); VmRSS idle \(idleKiB) KiB, \
            peak \(sampler.peakKiB) KiB, when idle \(settledKiB) KiB, 3 s later \(laterKiB) KiB; ceiling \(ceilingKiB) KiB
            """)
        #expect(settled < .seconds(90), "the engine kept working while the client did not read")
        #expect(sampler.peakKiB < ceilingKiB)
        #expect(laterKiB <= settledKiB + 1024, "memory still growing while the client does not read")
        #expect(taken < stream.count, "the engine read the whole flood while its answers could not be written")
        kill(pid, SIGKILL)
    }
}
