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
import Testing

/// The engine at the ends of its pipes: a client that stops reading, and one that goes away.
@Suite(.serialized) struct StreamTests {
    /// Spawns the engine with raw pipes the test controls completely.
    func spawn(_ arguments: [String]) throws -> (Process, FileHandle, FileHandle) {
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = EngineBinary.url
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("stol-stream-\(UUID().uuidString)")
        process.arguments = arguments + ["--data-dir", data.path, "--log-level", "error"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, input.fileHandleForWriting, output.fileHandleForReading)
    }

    @Test func aClosedStdoutEndsTheEngineCleanly() async throws {
        let (process, stdin, stdout) = try spawn([])
        try stdout.close()
        for _ in 0..<50 { try? stdin.write(contentsOf: Data(RequestLine.encode(PingRequest(), id: 1).utf8 + [0x0A])) }
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!process.isRunning)
        #expect(process.terminationReason == .exit, "no crash, no signal")
        #expect(process.terminationStatus == 0)
    }

    @Test func aCancelArrivesWhileTheClientIsNotReading() async throws {
        let (process, stdin, stdout) = try spawn(["--conformance-methods"])
        defer { if process.isRunning { process.terminate() } }
        try stdin.write(contentsOf: Data(RequestLine.encode(SleepRequest(ms: 20_000), id: "slow").utf8 + [0x0A]))
        // Fill the stdout pipe (64 KiB) several times over, without reading it.
        var burst = Data()
        for i in 0..<6000 { burst += Data(RequestLine.encode(PingRequest(), id: .integer(i)).utf8 + [0x0A]) }
        try stdin.write(contentsOf: burst)
        try await Task.sleep(for: .milliseconds(300))
        let started = ContinuousClock.now
        try stdin.write(contentsOf: Data(RequestLine.encode(CancelRequestNotification(id: .string("slow"))).utf8 + [0x0A]))
        try stdin.close()
        // Now read everything: the cancelled request's answer must be there, long before 20 s.
        let all = stdout.readDataToEndOfFile()
        let elapsed = ContinuousClock.now - started
        let lines = all.split(separator: 0x0A).compactMap { try? JSONParser.parse(Array($0)) }
        #expect(lines.count == 6001)
        let slow = lines.first { $0["id"] == "slow" }
        #expect(slow?["error"]?["code"] == .number("-32800"))
        #expect(elapsed < .seconds(15), "the cancel took effect while stdout was full")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
