import Foundation

/// The `stol-engine` binary under test.
public enum EngineBinary {
    /// `$STOL_ENGINE`, or `stol-engine` beside the test bundle, or the debug build.
    public static var url: URL {
        if let path = ProcessInfo.processInfo.environment["STOL_ENGINE"] { return URL(fileURLWithPath: path) }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("stol-engine")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir.deleteLastPathComponent()
        }
        return repositoryRoot.appendingPathComponent(".build/debug/stol-engine")
    }

    /// The checkout this file is in.
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// A fresh path for a data directory (not created).
    public static func temporaryDirectory(_ prefix: String = "stol-test") -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    }

    /// Runs the binary to completion with `arguments`; returns exit code, stdout and stderr.
    public static func run(_ arguments: [String], stdin: String = "") throws -> (code: Int32, stdout: String, stderr: String) {
        let dir = temporaryDirectory("stol-run")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let paths = ["in", "out", "err"].map { dir.appendingPathComponent($0) }
        try Data(stdin.utf8).write(to: paths[0])
        for path in paths.dropFirst() { _ = FileManager.default.createFile(atPath: path.path, contents: nil) }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: paths[0])
        process.standardOutput = try FileHandle(forWritingTo: paths[1])
        process.standardError = try FileHandle(forWritingTo: paths[2])
        try process.run()
        process.waitUntilExit()
        let out = try String(contentsOf: paths[1], encoding: .utf8)
        let err = try String(contentsOf: paths[2], encoding: .utf8)
        return (process.terminationStatus, out, err)
    }
}
