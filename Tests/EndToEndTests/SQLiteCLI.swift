import Foundation
import STOLProtocol

/// The sqlite3 command-line tool, so tests inspect files with something other than the engine.
enum SQLiteCLI {
    /// Runs `sql` on `file` and returns the output lines.
    static func run(_ file: URL, _ sql: String, readOnly: Bool = false) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = (readOnly ? ["-readonly"] : []) + [file.path, sql]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
