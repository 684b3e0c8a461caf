import Foundation
import Testing

@testable import STOLEngine
@testable import STOLPipeline
import STOLProtocol

/// All importer and reader tests nest here, so `swift test --filter Importer` selects them.
@Suite enum ImporterTests {}

/// A fresh directory under the system temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("stol-importer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        try write(name, Data(text.utf8))
    }

    @discardableResult
    func write(_ name: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(name)
        try data.write(to: file)
        return file
    }

    /// `name` compressed with /usr/bin/gzip into `name.gz` (the original is kept).
    @discardableResult
    func gzip(_ name: String, as output: String? = nil) throws -> URL {
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
        #expect(process.terminationStatus == 0)
        return target
    }
}

/// `data` compressed by /usr/bin/gzip.
func gzipData(_ data: Data) throws -> Data {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("data", data)
    return try Data(contentsOf: directory.gzip("data"))
}

/// Every byte a source produces, read `max` bytes at a time.
func drain(_ source: any ByteSource, max: Int) throws -> [UInt8] {
    var out: [UInt8] = []
    while try source.read(into: &out, max: max) > 0 {}
    return out
}

/// Every line of a line reader.
func allLines(_ reader: LineReader) throws -> [String] {
    var lines: [String] = []
    while let line = try reader.nextLine() { lines.append(line) }
    return lines
}

extension ImportResult {
    /// The taxon with `name`, for assertions.
    func taxon(_ name: String) -> SourceTaxon? { taxa.first { $0.scientificName == name } }
}
