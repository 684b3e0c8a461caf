import Foundation
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

/// All importer and reader tests nest here, so `swift test --filter Importer` selects them.
@Suite enum ImporterTests {}

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

/// What `NCBITaxdumpImporter` makes of a dump holding `nodes` and `names` (`.dmp` text).
func parseTaxdump(nodes: String, names: String) throws -> NCBITaxdumpImporter.Output {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    try dir.write("nodes.dmp", nodes)
    try dir.write("names.dmp", names)
    return try NCBITaxdumpImporter().parse(directory: dir.url)
}
