// libFuzzer entry point for the JSON-RPC dispatcher: each input is a stream of lines fed to a
// real `RPCServer` serving the conformance test methods, in this process. Every line
// is classified here, independently of the server's `IncomingMessage`, by the rules of
// protocol/README.md, which gives the exact answers due; the server's whole output is then
// checked against them. Any broken invariant traps, which libFuzzer reports as a crash.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
import STOLRPC
import STOLJSON

@_cdecl("LLVMFuzzerTestOneInput")
public func dispatchFuzzerTestOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    DispatchChecks.run(bytes)
    return 0
}

enum DispatchChecks {
    /// Longest a `test/sleep` or a `test/progress` (delay × steps) may take; longer ones are not
    /// sent, so that one execution stays in the milliseconds.
    static let maxSleepMs = 10.0
    /// An execution that has not ended by then is a hang (libFuzzer's own -timeout is 10 s).
    static let hangSeconds = 8

    static func run(_ input: [UInt8]) {
        // The first byte picks the server's options: below 128 a size cap of b + 1 bytes (the
        // oversized path, as in RPCFuzzer); 0xFF the defaults; anything else the default cap with
        // a tiny output budget, so intake pauses for every message written (the backpressure gate).
        let control = input[0]
        var options = RPCServer.Options()
        options.identity.serverName = "fuzz"
        options.identity.serverVersion = "1"
        // The batch cap is decided by a scan of the raw line (entries not validated), which this
        // oracle does not reproduce; LifecycleTests and BatchEntryCounterTests cover it. Without
        // this, an 8 KiB input of over 1,000 entries would be a false failure.
        options.limits.maxBatchEntries = .max
        if control < 128 {
            options.limits.maxMessageBytes = Int(control) + 1
        } else if control != 0xFF {
            options.limits.outputBudgetBytes = Int(control - 0x80) * 8 + 1
        }

        // Lines that would end or wedge the session are left out (see `Oracle.mustSkip`).
        var stream: [UInt8] = []
        var lines = input.dropFirst().split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        let endsWithLF = lines.last?.isEmpty ?? true
        if endsWithLF { lines.removeLast() }
        lines = lines.filter { !Oracle.mustSkip($0, cap: options.limits.maxMessageBytes) }
        for (i, line) in lines.enumerated() {
            stream += line
            if i < lines.count - 1 || endsWithLF { stream.append(0x0A) }
        }

        let oracle = Oracle(lines: lines, cap: options.limits.maxMessageBytes)
        let output = Session.serve(stream, options: options)
        oracle.check(output: output, input: stream)
    }
}

// MARK: - Running a real server

enum Session {
    /// The server's input and output are two unlinked temporary files, reused by every
    /// execution: a regular file never blocks either side, so neither a writer nor a reader
    /// thread is needed here, and every execution saves the pipes' thread hand-offs.
    static let inputFD = temporaryFile()
    static let outputFD = temporaryFile()

    /// Runs a fresh server on `stream` until it exits at end of input; returns all it wrote.
    static func serve(_ stream: [UInt8], options: RPCServer.Options) -> [UInt8] {
        rewrite(inputFD, with: stream)
        rewrite(outputFD, with: [])
        let logger = Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() }
        var server: RPCServer? = RPCServer(
            methods: .conformanceMethods(), options: options, input: inputFD, output: outputFD, logger: logger)
        let exited = DispatchSemaphore(value: 0)
        let exitCode = ExitCode()
        Task { [server] in
            exitCode.set(await server!.run())
            exited.signal()
        }
        if exited.wait(timeout: .now() + .seconds(DispatchChecks.hangSeconds)) == .timedOut {
            fatalError("fuzz invariant broken: the server did not exit within \(DispatchChecks.hangSeconds) s of end of input")
        }
        Oracle.check(exitCode.get() == 0, "exit code \(exitCode.get() ?? -1) at end of input (expected 0)")
        // Once it has exited, nothing may keep the server alive: a task or thread it started and
        // never ended, or a reference cycle, would hold it (and leak). This stands in for
        // LeakSanitizer, which run.sh turns off for this target (see there).
        let released = WeakBox(server)
        server = nil
        let deadline = DispatchTime.now() + .seconds(5)
        while released.isAlive {
            Oracle.check(DispatchTime.now() < deadline, "the server is still referenced 5 s after it exited")
            usleep(50)
        }
        // run() returns after flushing, so the file holds every byte the server wrote.
        let size = Int(lseek(outputFD, 0, SEEK_END))
        var output = [UInt8](repeating: 0, count: size)
        let got = output.withUnsafeMutableBytes { pread(outputFD, $0.baseAddress, size, 0) }
        precondition(got == size, "reading the server's output failed")
        return output
    }

    private static func temporaryFile() -> Int32 {
        var template = Array("/tmp/stol-dispatch-fuzz-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        precondition(fd >= 0, "mkstemp failed")
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }

    private static func rewrite(_ fd: Int32, with bytes: [UInt8]) {
        precondition(ftruncate(fd, 0) == 0 && lseek(fd, 0, SEEK_SET) == 0, "resetting a temporary file failed")
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        precondition(written == bytes.count, "writing a temporary file failed")
        precondition(lseek(fd, 0, SEEK_SET) == 0, "rewinding a temporary file failed")
    }

    /// Watches an object without keeping it alive.
    final class WeakBox: @unchecked Sendable {
        private let lock = NSLock()
        private weak var object: AnyObject?
        init(_ object: AnyObject?) { self.object = object }
        var isAlive: Bool {
            lock.lock()
            defer { lock.unlock() }
            return object != nil
        }
    }

    /// The server's exit code, set by the task that ran it.
    final class ExitCode: @unchecked Sendable {
        private let lock = NSLock()
        private var code: Int32?
        func set(_ value: Int32) {
            lock.lock()
            code = value
            lock.unlock()
        }
        func get() -> Int32? {
            lock.lock()
            defer { lock.unlock() }
            return code
        }
    }
}

// MARK: - What the input calls for

/// The answers due for a stream of lines, by the rules of protocol/README.md, and the checks of
/// the server's output against them.
struct Oracle {
    /// What one due answer must look like.
    enum Due: Hashable {
        case parseError            // -32700, id null
        case invalid               // -32600 (not messageTooLarge)
        case tooLarge              // -32600 messageTooLarge, id null
        case request(String)       // a response to a request for this method
    }

    struct Slot {
        var id: JSONValue
        var due: Due
    }

    /// Answers due to single lines, and one list per batch line that is due an array.
    private(set) var singles: [Slot] = []
    private(set) var batches: [[Slot]] = []
    /// Facts about the whole input that widen what a request may be answered with.
    private var anyCancel = false
    private var anyShutdown = false
    /// Methods that `test/notify` may have been asked to send.
    private var notifyMethods: Set<String> = []
    /// Progress tokens of requests that have an id, with how often each occurs, and the request
    /// id behind each token.
    private var tokenCounts: [JSONValue: Int] = [:]
    private var tokenRequest: [JSONValue: JSONValue] = [:]
    private var idCounts: [JSONValue: Int] = [:]

    init(lines: [[UInt8]], cap: Int) {
        for var line in lines {
            if line.last == 0x0D { line.removeLast() }
            if line.count > cap {
                singles.append(Slot(id: .null, due: .tooLarge))
                continue
            }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            guard let value = try? JSONParser.parse(line) else {
                singles.append(Slot(id: .null, due: .parseError))
                continue
            }
            if case .array(let entries) = value {
                if entries.isEmpty {
                    singles.append(Slot(id: .null, due: .invalid))
                    continue
                }
                let slots = entries.compactMap { note($0) }
                if !slots.isEmpty { batches.append(slots) }
            } else if let slot = note(value) {
                singles.append(slot)
            }
        }
    }

    /// Classifies one message (a line or a batch entry) and records what it implies.
    private mutating func note(_ value: JSONValue) -> Slot? {
        guard case .object = value else { return Slot(id: .null, due: .invalid) }
        var id: JSONValue?
        if let raw = value["id"] {
            switch raw {
            case .string, .number, .null: id = raw
            default: return Slot(id: .null, due: .invalid)
            }
        }
        guard value["jsonrpc"] == .string("2.0") else { return Slot(id: id ?? .null, due: .invalid) }
        guard let methodValue = value["method"] else {
            if value["result"] != nil || value["error"] != nil { return nil }  // a client response
            return Slot(id: id ?? .null, due: .invalid)
        }
        guard case .string(let method) = methodValue else { return Slot(id: id ?? .null, due: .invalid) }
        let params = value["params"]
        switch params {
        case nil, .object?, .array?: break
        default: return Slot(id: id ?? .null, due: .invalid)
        }
        switch method {
        case "$/cancelRequest": anyCancel = true
        case "shutdown": anyShutdown = true
        case "test/notify":
            if case .object(let members)? = params {
                for member in members where member.key == "method" {
                    if case .string(let name) = member.value { notifyMethods.insert(name) }
                }
            }
        default: break
        }
        guard let id else { return nil }  // a notification: never answered
        idCounts[id, default: 0] += 1
        if let token = params?["_meta"]?["progressToken"] {
            switch token {
            case .string, .number:
                tokenCounts[token, default: 0] += 1
                tokenRequest[token] = id
            default: break
            }
        }
        return Slot(id: id, due: .request(method))
    }

    // MARK: Lines never sent

    /// True for a line that would end or wedge the session: an `exit` notification (the server
    /// stops at once and drops answers in flight), `initialize` with a numeric `processId` (a
    /// parent watcher that outlives the execution), `test/sleep` or `test/progress` longer than
    /// `maxSleepMs`, and `test/print` (it writes the fuzz input to this process's stdout).
    static func mustSkip(_ raw: [UInt8], cap: Int) -> Bool {
        var line = raw
        if line.last == 0x0D { line.removeLast() }
        guard line.count <= cap, let value = try? JSONParser.parse(line) else { return false }
        if case .array(let entries) = value { return entries.contains(where: isDangerous) }
        return isDangerous(value)
    }

    private static func isDangerous(_ value: JSONValue) -> Bool {
        guard case .object(let members) = value else { return false }
        // A repeated member resolves to its last value, but every value is looked at to be safe.
        let methods = members.filter { $0.key == "method" }.compactMap { $0.value.stringValue }
        let params = members.filter { $0.key == "params" }.map(\.value)
        func numbers(_ key: String) -> [Double] {
            params.flatMap { p -> [Double] in
                guard case .object(let fields) = p else { return [] }
                return fields.filter { $0.key == key }.compactMap { $0.value.doubleValue }
            }
        }
        for method in methods {
            switch method {
            case "exit", "test/print":
                return true
            case "initialize":
                let pids = params.flatMap { p -> [JSONValue] in
                    guard case .object(let fields) = p else { return [] }
                    return fields.filter { $0.key == "processId" }.map(\.value)
                }
                if pids.contains(where: { if case .number = $0 { true } else { false } }) { return true }
            case "test/sleep":
                if numbers("ms").contains(where: { !($0 <= DispatchChecks.maxSleepMs) }) { return true }
            case "test/progress":
                let delay = numbers("delayMs").max() ?? 0
                let steps = min(1000, numbers("steps").max() ?? 0)
                if delay > 0 && !(delay * max(steps, 1) <= DispatchChecks.maxSleepMs) { return true }
            default:
                break
            }
        }
        return false
    }

    // MARK: Checking the output

    func check(output: [UInt8], input: [UInt8]) {
        Self.check(output.isEmpty || output.last == 0x0A, "output ends inside a line")
        var responses: [JSONValue] = []
        var arrays: [[JSONValue]] = []
        // Progress per token, in output order, and the output position of each response by id.
        var progress: [JSONValue: [(position: Int, value: JSONValue)]] = [:]
        var answeredAt: [JSONValue: Int] = [:]
        let progressIsOurs = !notifyMethods.contains("$/progress")

        for (position, line) in output.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().enumerated() {
            let bytes = Array(line)
            Self.check(!bytes.contains(0x0D), "raw CR in an output line")
            for i in bytes.indices.dropLast(2) where bytes[i] == 0xE2 && bytes[i + 1] == 0x80 {
                Self.check(bytes[i + 2] != 0xA8 && bytes[i + 2] != 0xA9, "raw U+2028/U+2029 in an output line")
            }
            guard let value = try? JSONParser.parse(bytes, maxDepth: 1 << 16) else {
                Self.fail("output line is not JSON: \(String(decoding: bytes.prefix(300), as: UTF8.self))")
            }
            switch value {
            case .array(let entries):
                Self.check(!entries.isEmpty, "empty batch response")
                for entry in entries {
                    Self.checkResponseShape(entry)
                    Self.check(!Self.hasDuplicateKeys(entry), "duplicate keys in \(entry)")
                    answeredAt[entry["id"]!] = position
                }
                arrays.append(entries)
            case .object where value["method"] != nil && value["id"] == nil:
                Self.checkNotificationShape(value)
                guard case .string(let method)? = value["method"] else { continue }
                if method == "$/progress" && progressIsOurs {
                    Self.check(!Self.hasDuplicateKeys(value), "duplicate keys in \(value)")
                    let token = value["params"]?["token"] ?? .null
                    Self.check(tokenCounts[token] != nil, "progress for a token no request with an id passed: \(value)")
                    progress[token, default: []].append((position, value))
                } else {
                    Self.check(notifyMethods.contains(method), "a notification nobody asked for: \(value)")
                }
            default:
                Self.checkResponseShape(value)
                // Only the notifications `test/notify` echoes may repeat a key: the client's own.
                Self.check(!Self.hasDuplicateKeys(value), "duplicate keys in \(value)")
                answeredAt[value["id"]!] = position
                responses.append(value)
            }
        }

        // Every single line due an answer gets exactly one, with its id.
        Self.check(responses.count == singles.count,
                   "\(responses.count) single responses for \(singles.count) due\n\(Self.show(input, output))")
        Self.check(match(singles, responses), "single responses do not match what is due\n\(Self.show(input, output))")

        // Every batch due answers gets exactly one array holding exactly its due answers.
        Self.check(arrays.count == batches.count,
                   "\(arrays.count) batch arrays for \(batches.count) due\n\(Self.show(input, output))")
        var open = batches
        for array in arrays {
            let key = Self.sortedIDs(array.map { $0["id"]! })
            guard let i = open.firstIndex(where: { Self.sortedIDs($0.map(\.id)) == key && match($0, array) }) else {
                Self.fail("a batch array matches no batch due: \(array)\n\(Self.show(input, output))")
            }
            open.remove(at: i)
        }

        // Progress: only for requests that asked; begin first, end last, fractions never going
        // back, nothing after the request's response. Checked per token used by one request
        // whose id is unique (otherwise reports of two requests could not be told apart).
        for (token, reports) in progress where tokenCounts[token] == 1 {
            guard let id = tokenRequest[token], idCounts[id] == 1 else { continue }
            let kinds = reports.map { $0.value["params"]?["value"]?["kind"]?.stringValue ?? "?" }
            for (i, kind) in kinds.enumerated() {
                switch kind {
                case "begin": Self.check(i == 0, "progress begin is not first: \(kinds)")
                case "end": Self.check(i == kinds.count - 1, "progress end is not last: \(kinds)")
                case "report": break
                default: Self.fail("progress of kind \(kind)")
                }
            }
            var last = 0.0
            for report in reports {
                guard let fraction = report.value["params"]?["value"]?["fraction"]?.doubleValue else { continue }
                Self.check(fraction >= last && fraction <= 1, "progress fraction \(fraction) after \(last)")
                last = fraction
            }
            if let answered = answeredAt[id] {
                Self.check(reports.allSatisfy { $0.position < answered },
                           "progress for \(token) after the response to \(id)\n\(Self.show(input, output))")
            }
        }
    }

    /// Whether `actual` answers `due` one to one, matching ids and what each answer may be.
    private func match(_ due: [Slot], _ actual: [JSONValue]) -> Bool {
        guard due.count == actual.count else { return false }
        var dueByID: [JSONValue: [Due]] = [:]
        for slot in due { dueByID[slot.id, default: []].append(slot.due) }
        var actualByID: [JSONValue: [JSONValue]] = [:]
        for response in actual { actualByID[response["id"]!, default: []].append(response) }
        guard Set(dueByID.keys) == Set(actualByID.keys) else { return false }
        for (id, dues) in dueByID {
            guard let answers = actualByID[id], answers.count == dues.count else { return false }
            if !Self.perfectMatching(dues, answers, accepts: accepts) { return false }
        }
        return true
    }

    /// Whether `response` is an acceptable answer to a line or entry due `due`.
    private func accepts(_ due: Due, _ response: JSONValue) -> Bool {
        let code = response["error"]?["code"]?.int64Value
        let kind = response["error"]?["data"]?["kind"]?.stringValue
        switch due {
        case .parseError:
            return code == -32700 && (kind == "invalidJSON" || kind == "invalidUTF8")
        case .invalid:
            return code == -32600 && kind != "messageTooLarge"
        case .tooLarge:
            return code == -32600 && kind == "messageTooLarge"
        case .request(let method):
            if let code {
                if code == -32800 && anyCancel { return true }
                if code == -32001 && anyShutdown { return true }
            }
            let result = response["result"]
            switch method {
            case "ping", "rpc.discover": return result == .object([])
            case "initialized", "shutdown": return result == .null
            case "get_data": return result == ["hello", 5]
            case "notify_hello": return result == 19
            case "test/fail": return code == -32603
            case "initialize":
                return (result?["protocolVersion"] == "1.0" && result?["serverInfo"]?["name"] == "fuzz") || code == -32602
            case "subtract", "sum":
                if let value = result?.doubleValue { return value.isFinite }
                return code == -32602
            case "test/sleep", "test/progress", "test/notify":
                if let result { return result.isObject }
                return code == -32602
            default:
                return code == -32601 && kind == "methodNotFound" && response["error"]?["data"]?["method"] == .string(method)
            }
        }
    }

    /// Kuhn's augmenting paths: can every due answer be paired with its own acceptable response?
    private static func perfectMatching(_ dues: [Due], _ answers: [JSONValue], accepts: (Due, JSONValue) -> Bool) -> Bool {
        // The common case first: one kind of due answer, each response checked alone.
        if Set(dues).count == 1 { return answers.allSatisfy { accepts(dues[0], $0) } }
        let edges = answers.map { answer in dues.indices.filter { accepts(dues[$0], answer) } }
        var owner = [Int?](repeating: nil, count: dues.count)
        func augment(_ a: Int, _ seen: inout [Bool]) -> Bool {
            for d in edges[a] where !seen[d] {
                seen[d] = true
                if owner[d] == nil || augment(owner[d]!, &seen) {
                    owner[d] = a
                    return true
                }
            }
            return false
        }
        for a in answers.indices {
            var seen = [Bool](repeating: false, count: dues.count)
            if !augment(a, &seen) { return false }
        }
        return true
    }

    /// The ids of a batch, as sorted JSON text, to pair an array with the batch it answers.
    private static func sortedIDs(_ ids: [JSONValue]) -> [String] {
        ids.map { String(decoding: JSONWriter.encode($0), as: UTF8.self) }.sorted()
    }

    // MARK: Shapes

    static func checkResponseShape(_ r: JSONValue) {
        guard case .object(let members) = r else { fail("a response that is not an object: \(r)") }
        let keys = Set(members.map(\.key))
        check(keys.isSubset(of: ["jsonrpc", "id", "result", "error"]), "extra members in \(r)")
        check(r["jsonrpc"] == "2.0", "jsonrpc is not \"2.0\" in \(r)")
        switch r["id"] {
        case .string?, .number?, .null?: break
        default: fail("bad id in \(r)")
        }
        check((r["result"] == nil) != (r["error"] == nil), "needs exactly one of result and error: \(r)")
        if let error = r["error"] {
            guard case .object(let fields) = error else { fail("error is not an object: \(r)") }
            check(Set(fields.map(\.key)).isSubset(of: ["code", "message", "data"]), "extra members in error: \(r)")
            guard case .number(let code)? = error["code"], Int(code) != nil else { fail("error code is not an integer: \(r)") }
            check(error["message"]?.stringValue != nil, "error message is not a string: \(r)")
        }
    }

    static func checkNotificationShape(_ n: JSONValue) {
        guard case .object(let members) = n else { return }
        check(Set(members.map(\.key)).isSubset(of: ["jsonrpc", "method", "params"]), "extra members in \(n)")
        check(n["jsonrpc"] == "2.0", "jsonrpc is not \"2.0\" in \(n)")
        check(n["method"]?.stringValue != nil, "notification method is not a string: \(n)")
        switch n["params"] {
        case nil, .object?, .array?: break
        default: fail("notification params are not structured: \(n)")
        }
    }

    static func hasDuplicateKeys(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let members):
            var seen = Set<String>()
            for member in members {
                if !seen.insert(member.key).inserted || hasDuplicateKeys(member.value) { return true }
            }
            return false
        case .array(let entries):
            return entries.contains(where: hasDuplicateKeys)
        default:
            return false
        }
    }

    static func show(_ input: [UInt8], _ output: [UInt8]) -> String {
        "input: \(String(decoding: input.prefix(2000), as: UTF8.self))\noutput: \(String(decoding: output.prefix(4000), as: UTF8.self))"
    }

    static func check(_ condition: Bool, _ what: @autoclosure () -> String) {
        if !condition { fail(what()) }
    }

    static func fail(_ what: String) -> Never {
        fatalError("fuzz invariant broken: \(what)")
    }
}
