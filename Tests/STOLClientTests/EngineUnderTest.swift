#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import STOLClient
import STOLSupport
import STOLTestSupport

/// A `ProcessTransport` for the binary under test that remembers each engine it starts, so a
/// test can kill one from outside, as a crash would end it.
final class RecordingTransport: EngineTransport {
    let process: ProcessTransport
    private let started = Locked<[Int32]>([])

    init(_ arguments: [String] = [], dataDirectory: URL = EngineBinary.temporaryDirectory("stol-client")) {
        process = ProcessTransport(executable: EngineBinary.url, arguments: arguments + ["--data-dir", dataDirectory.path])
    }

    func start() throws -> EngineChannel {
        let channel = try process.start()
        if let pid = channel.processID { started.withLock { $0.append(pid) } }
        return channel
    }

    /// The process ids of the engines started so far, oldest first.
    var processIDs: [Int32] { started.withLock { $0 } }

    /// Ends the newest engine with `signal`, from outside the client.
    func killNewest(_ signal: Int32 = SIGKILL) {
        if let pid = processIDs.last { _ = kill(pid, signal) }
    }
}
