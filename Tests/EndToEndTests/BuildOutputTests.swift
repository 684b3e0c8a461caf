#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import STOLSupport
import STOLTestSupport
import Testing

/// `build-db` keeps what exists: it builds beside `--out` and renames over it only once the new
/// database is complete and checked. A build stopped by SIGTERM, SIGINT or SIGHUP at any moment,
/// or failing on a full disk, leaves the old `--out` byte for byte and nothing beside it.
@Suite(.serialized) struct BuildOutputTests {
    /// Interrupted builds; `STOL_BUILD_INTERRUPTS` changes it.
    static var interrupts: Int { Int(ProcessInfo.processInfo.environment["STOL_BUILD_INTERRUPTS"] ?? "") ?? 12 }
    static let source = EngineBinary.repositoryRoot.appendingPathComponent("dataset/default").path

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
        process.executableURL = EngineBinary.url
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// The moments a build is stopped at: at once, or when its progress on stderr reaches a
    /// stage (reading, ordering, rows, search index, Euler tour, relatives, compacting), each
    /// plus a random delay; from the last one the check and the rename may finish first.
    static let stages = ["", "read ", "  ordering", "  taxa ", "  search index", "  euler tour", "  relatives", "  vacuum"]

    @Test func aBuildStoppedAtAnyMomentLeavesTheOldOutputAndNothingBeside() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A whole build first: the bytes a finished build must leave.
        let reference = dir.appendingPathComponent("reference.sqlite")
        let whole = try Self.start(Self.arguments(reference))
        whole.waitUntilExit()
        try #require(whole.terminationStatus == 0)
        let newBytes = try Data(contentsOf: reference)
        try FileManager.default.removeItem(at: reference)

        let old = Self.oldBytes()
        let out = dir.appendingPathComponent("out.sqlite")
        let signals: [(Int32, String)] = [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT"), (SIGHUP, "SIGHUP")]
        var generator = SplitMix64(seed: 0xB01D_DB)
        var stopped = 0, finished = 0
        for round in 0..<Self.interrupts {
            try old.write(to: out)
            let (signal, name) = signals[round % signals.count]
            let stage = Self.stages[round % Self.stages.count]
            let delay = useconds_t.random(in: 0...(stage == "  vacuum" ? 800_000 : 100_000), using: &generator)
            // Progress goes to stderr (no --quiet): read it to see the stage arrive.
            let process = Process()
            process.executableURL = EngineBinary.url
            process.arguments = Self.arguments(out).filter { $0 != "--quiet" }
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            let progress = Pipe()
            process.standardError = progress
            let seen = Locked(""), drained = Locked(false)
            let fd = progress.fileHandleForReading.fileDescriptor
            try process.run()
            Thread {
                var chunk = [UInt8](repeating: 0, count: 4096)
                while true {
                    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
                    if n <= 0 { break }
                    seen.withLock { $0 += String(decoding: chunk[0..<n], as: UTF8.self) }
                }
                drained.withLock { $0 = true }
            }.start()
            let deadline = ContinuousClock.now + .seconds(120)
            while !stage.isEmpty, process.isRunning, !seen.withLock({ $0.contains(stage) }), ContinuousClock.now < deadline { usleep(1_000) }
            usleep(delay)
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            while !drained.withLock({ $0 }), ContinuousClock.now < deadline { usleep(1_000) }
            let moment = "\(name) \(delay / 1000) ms after \(stage.isEmpty ? "the start" : "'\(stage.trimmingCharacters(in: .whitespaces))'")"
            let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            #expect(left == ["out.sqlite"], "round \(round) (\(moment)): left \(left)")
            let now = try Data(contentsOf: out)
            if process.terminationReason == .exit, process.terminationStatus == 0 {
                // The signal came after the new database was in place: the build ended as usual.
                finished += 1
                #expect(now == newBytes, "round \(round) (\(moment)): a finished build must leave the new database")
            } else {
                stopped += 1
                #expect(now == old, "round \(round) (\(moment)): the old output changed")
                if process.terminationReason == .exit {
                    #expect(process.terminationStatus == 128 + signal, "round \(round) (\(moment))")
                    #expect(seen.withLock { $0 }.contains("stopped by \(name); \(out.path) is unchanged"), "round \(round) (\(moment))")
                }
            }
        }
        print("BuildOutputTests: \(Self.interrupts) builds signalled: \(stopped) stopped, \(finished) had finished")
        #expect(stopped >= Self.interrupts / 2, "too few builds were really stopped to judge")
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
            try run("ulimit -f 2048; exec '\(EngineBinary.url.path)' \(quoted(Self.arguments(limited.appendingPathComponent("out.sqlite"))))", stderr: log)
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
            try run("exec '\(EngineBinary.url.path)' \(quoted(Self.arguments(mount.appendingPathComponent("out.sqlite"))))", stderr: log)
        }, label: "3 MiB tmpfs")
    }
}
