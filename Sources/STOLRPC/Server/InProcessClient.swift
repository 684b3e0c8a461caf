#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import STOLSupport
import STOLJSON
import STOLProtocol

/// Calls a method table's handlers in the same process, through the same params decoding and
/// result encoding as the server, typed by each method's `RPCRequest` contract. For tests that
/// exercise handlers without spawning the binary; notifications they send are collected.
public final class InProcessClient: Sendable {
    private let table: MethodTable
    private let output: OutputWriter
    private let writeEnd: Int32
    private let received = Locked<[JSONValue]>([])
    private let nextID = Locked(0)

    /// A client of `table`.
    public init(_ table: MethodTable) {
        self.table = table
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        writeEnd = fds[1]
        output = OutputWriter(fd: fds[1]) {}
        let readEnd = fds[0], received = self.received
        let thread = Thread {
            var buffer: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, 65536) }
                if n <= 0 { break }
                buffer += chunk[0..<n]
                while let newline = buffer.firstIndex(of: 0x0A) {
                    if let message = try? JSONParser.parse(Array(buffer[..<newline])) { received.withLock { $0.append(message) } }
                    buffer.removeSubrange(...newline)
                }
            }
            close(readEnd)
        }
        thread.start()
    }

    deinit {
        output.flush()
        output.close()
        // The reader thread sees the end and exits.
        close(writeEnd)
    }

    /// Sends `request` and returns its result as JSON; a handler's error is thrown as the
    /// `RPCError` the server would answer with.
    public func call<R: RPCRequest>(_ request: R, progressToken: JSONValue? = nil) async throws -> JSONValue {
        var object = try JSONEncoding.value(of: request)
        if let progressToken, case .object(var members) = object {
            members.append((key: "_meta", value: .object(["progressToken": progressToken])))
            object = .object(members)
        }
        return try await call(R.method, params: object, progressToken: progressToken)
    }

    /// Sends `request` and decodes its result into `R.Response`.
    public func send<R: RPCRequest>(_ request: R) async throws -> R.Response {
        try JSONValueDecoder().decode(R.Response.self, from: try await call(request))
    }

    /// Calls a method by name with raw params, as a client that does not know its contract would.
    public func call(_ name: String, params: JSONValue?, progressToken: JSONValue? = nil) async throws -> JSONValue {
        let id = nextID.withLock { $0 += 1; return $0 }
        let progress = progressToken.map { ProgressReporter(token: $0, notation: .dollarProgress, output: output) }
        let context = RequestContext(id: .number(String(id)), method: name, progress: progress, output: output, session: SessionControls(watchParent: { _ in }))
        defer { progress?.close() }
        do {
            return try JSONParser.parse(try await table.call(name, params: params, context: context))
        } catch {
            throw RPCError(thrown: error, cancelled: Task.isCancelled)
        }
    }

    /// The notifications sent so far (progress included), oldest first. A marker sent behind them
    /// tells when the reader has seen everything written before this call.
    public func notifications() async -> [JSONValue] {
        let mark = nextID.withLock { $0 += 1; return $0 }
        output.send(Envelope.notification(method: Self.markMethod, params: .object(["mark": .integer(mark)])))
        while !received.withLock({ $0.contains { $0["params"]?["mark"] == .integer(mark) && $0["method"] == .string(Self.markMethod) } }) {
            try? await Task.sleep(for: .milliseconds(1))
        }
        return received.withLock { $0 }.filter { $0["method"] != .string(Self.markMethod) }
    }

    private static let markMethod = "$/inProcessClient/mark"
}
