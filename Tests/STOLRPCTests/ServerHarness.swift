#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
@testable import STOLRPC
import STOLJSON
import STOLSupport

/// Runs a real `RPCServer` in-process over two pipes, the way stdio would connect it.
final class ServerHarness: Sendable {
    let server: RPCServer
    private let toServer: Int32
    private let serverOutput: Int32
    private final class Lines: Sendable {
        let queue = Locked<[String]>([])
    }
    private let received = Lines()
    /// Set when the server has closed its output and everything it wrote has been read.
    private let outputEnded = Locked(false)
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
        let readFD = output[0]
        let received = self.received, outputEnded = self.outputEnded
        let thread = Thread {
            var buffer: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(readFD, $0.baseAddress, 65536) }
                if n <= 0 {
                    outputEnded.withLock { $0 = true }
                    break
                }
                buffer += chunk[0..<n]
                while let nl = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[..<nl], as: UTF8.self)
                    received.queue.withLock { $0.append(line) }
                    buffer.removeSubrange(...nl)
                }
            }
        }
        thread.start()
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
        let closeOnce = outputEnded.withLock { ended -> Bool in !ended }
        if closeOnce { close(serverOutput) }
        while !outputEnded.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(2)) }
        return received.queue.withLock { lines in
            defer { lines.removeAll() }
            return lines.compactMap { try? JSONParser.parse(Array($0.utf8)) }
        }
    }

    /// The next output line, or nil after `timeout`. The default is long: under a loaded machine
    /// other tests may hold the cooperative pool for seconds, and nothing here is a speed check.
    func next(timeout: Duration = .seconds(60)) async -> JSONValue? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let line = received.queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                return try? JSONParser.parse(Array(line.utf8))
            }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return nil
    }
}
