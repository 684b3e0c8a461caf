#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// `build-db` keeps what exists: it builds beside `--out` and renames over it only once the new
/// database is complete and checked. A build stopped by SIGTERM, SIGINT or SIGHUP at any moment,
/// or failing on a full disk, leaves the old `--out` byte for byte and nothing beside it.
@Suite(.serialized) struct BuildOutputTests {
    /// Interrupted builds; `STOL_BUILD_INTERRUPTS` changes it.
    static var interrupts: Int { Int(ProcessInfo.processInfo.environment["STOL_BUILD_INTERRUPTS"] ?? "") ?? 12 }
    static let source = EngineProcess.repositoryRoot.appendingPathComponent("dataset/default").path

    /// The arguments of one build of the embedded dataset into `out` (fixed date: the same bytes every time).
    static func arguments(_ out: URL) -> [String] {
        ["build-db", "--taxa", source, "--out", out.path, "--build-date", "2026-01-01", "--quiet"]
    }

    /// Bytes that stand for a previous database: whatever they are, they must come back unchanged.
    static func oldBytes() -> Data {
        var generator = SplitMix64(seed: 0x01D_F11E)
        return Data((0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stol-build-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = EngineProcess.binary
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test func aBuildStoppedAtAnyMomentLeavesTheOldOutputAndNothingBeside() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A whole build first: the new bytes, and how long a build takes here.
        let reference = dir.appendingPathComponent("reference.sqlite")
        let began = ContinuousClock.now
        let whole = try Self.start(Self.arguments(reference))
        whole.waitUntilExit()
        let duration = ContinuousClock.now - began
        try #require(whole.terminationStatus == 0)
        let newBytes = try Data(contentsOf: reference)
        try FileManager.default.removeItem(at: reference)

        let old = Self.oldBytes()
        let out = dir.appendingPathComponent("out.sqlite")
        let signals: [(Int32, String)] = [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT"), (SIGHUP, "SIGHUP")]
        var generator = SplitMix64(seed: 0xB01D_DB)
        var stopped = 0, finished = 0
        let durationMicros = Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
        for round in 0..<Self.interrupts {
            try old.write(to: out)
            let (signal, name) = signals[round % signals.count]
            // Anywhere from the start to just past a whole build.
            let delay = useconds_t(Double.random(in: 0...1.1, using: &generator) * durationMicros)
            let process = try Self.start(Self.arguments(out))
            usleep(delay)
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            #expect(left == ["out.sqlite"], "round \(round) (\(name) after \(delay / 1000) ms): left \(left)")
            let now = try Data(contentsOf: out)
            if process.terminationReason == .exit, process.terminationStatus == 0 {
                // The signal came after the new database was in place: the build ended as usual.
                finished += 1
                #expect(now == newBytes, "round \(round): a finished build must leave the new database")
            } else {
                stopped += 1
                #expect(now == old, "round \(round) (\(name) after \(delay / 1000) ms, \(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus)): the old output changed")
                if process.terminationReason == .exit { #expect(process.terminationStatus == 128 + signal) }
            }
        }
        print("BuildOutputTests: \(Self.interrupts) builds (a whole one takes \(duration)) signalled: \(stopped) stopped, \(finished) had finished")
        #expect(stopped >= Self.interrupts / 2, "too few builds were really interrupted to judge")
    }

    @Test func aBuildOnAFullDiskLeavesTheOldOutputAndNothingBeside() throws {
        let old = Self.oldBytes()
        func check(_ dir: URL, run: () throws -> (status: Int32, stderr: String), label: String) throws {
            let out = dir.appendingPathComponent("out.sqlite")
            try old.write(to: out)
            let result = try run()
            #expect(result.status != 0, "\(label)")
            #expect(result.stderr.contains("\(out.path) is unchanged"), "\(label): \(result.stderr)")
            #expect(try Data(contentsOf: out) == old, "\(label): the old output changed")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.sqlite"], "\(label)")
        }
        func run(_ command: String, stderr: URL) throws -> (status: Int32, stderr: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: stderr)
            try process.run()
            process.waitUntilExit()
            return (process.terminationStatus, (try? String(contentsOf: stderr, encoding: .utf8)) ?? "")
        }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("stol-build-full-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let quoted = { (args: [String]) in args.map { "'\($0)'" }.joined(separator: " ") }

        // A file-size limit: every write past 1 MiB fails, as on a full disk (works anywhere).
        let limited = try Self.folder()
        defer { try? FileManager.default.removeItem(at: limited) }
        try check(limited, run: {
            try run("ulimit -f 2048; exec '\(EngineProcess.binary.path)' \(quoted(Self.arguments(limited.appendingPathComponent("out.sqlite"))))", stderr: log)
        }, label: "ulimit -f")

        // A really full file system: a 3 MiB tmpfs, where mounting is allowed (as root in CI).
        let mount = try Self.folder()
        defer { try? FileManager.default.removeItem(at: mount) }
        guard FullDiskTests.shell("mount -t tmpfs -o size=3m tmpfs '\(mount.path)'") == 0 else {
            print("BuildOutputTests: the tmpfs case is skipped, mounting is not allowed here")
            return
        }
        defer { _ = FullDiskTests.shell("umount '\(mount.path)'") }
        try check(mount, run: {
            try run("exec '\(EngineProcess.binary.path)' \(quoted(Self.arguments(mount.appendingPathComponent("out.sqlite"))))", stderr: log)
        }, label: "3 MiB tmpfs")
    }
}
