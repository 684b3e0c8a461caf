import Foundation

/// A fresh directory under the system temporary directory, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("stol-importer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func remove() { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    public func write(_ name: String, _ text: String) throws -> URL {
        try write(name, Data(text.utf8))
    }

    @discardableResult
    public func write(_ name: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(name)
        try data.write(to: file)
        return file
    }

    /// `name` compressed with /usr/bin/gzip into `name.gz` (the original is kept).
    @discardableResult
    public func gzip(_ name: String, as output: String? = nil) throws -> URL {
        let source = url.appendingPathComponent(name)
        let target = url.appendingPathComponent(output ?? name + ".gz")
        _ = FileManager.default.createFile(atPath: target.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
        process.arguments = ["-c", "-n"]
        process.standardInput = try FileHandle(forReadingFrom: source)
        process.standardOutput = try FileHandle(forWritingTo: target)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Fixtures.FixtureError(message: "gzip failed on \(name)") }
        return target
    }
}
