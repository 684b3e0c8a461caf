#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
import STOLJSON
import STOLSupport
import STOLTestSupport

@testable import STOLRPC

/// Runs a real `RPCServer` in-process over two pipes, the way stdio would connect it; its output
/// is read by the tests' one pipe reader (`LineCollector`).
final class ServerHarness: Sendable {
    let server: RPCServer
    private let toServer: Int32
    private let serverOutput: Int32
    private let received: LineCollector
    /// Whether `remaining()` closed the server's output (it is closed once).
    private let outputClosed = Locked(false)
    let exitCode: Task<Int32, Never>

    init(methods: MethodTable = .conformanceMethods(), configure: (inout RPCServer.Options) -> Void = { _ in }) {
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        _ = pipe(&input)
        _ = pipe(&output)
        var options = RPCServer.Options()
        configure(&options)
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        server = RPCServer(methods: methods, options: options, input: input[0], output: output[1], logger: logger)
        toServer = input[1]
        serverOutput = output[1]
        received = LineCollector(fd: output[0], closesAtEnd: true)
        let server = self.server
        exitCode = Task { await server.run() }
    }

    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBytes { _ = write(toServer, $0.baseAddress, $0.count) }
    }

    func closeInput() { close(toServer) }

    /// Every message not yet taken, once the server has ended and closed its output: what a test
    /// reads after `exit` or `stop`, with no quiet period to guess.
    func remaining() async -> [JSONValue] {
        _ = await exitCode.value
        // `run()` has flushed everything; closing the write end lets the reader see the end.
        let first = outputClosed.withLock { closed -> Bool in
            defer { closed = true }
            return !closed
        }
        if first { close(serverOutput) }
        return await received.remaining()
    }

    /// The next output message, or nil after `timeout`.
    func next(timeout: Duration = .seconds(60)) async -> JSONValue? {
        await received.next(timeout: timeout)
    }
}
