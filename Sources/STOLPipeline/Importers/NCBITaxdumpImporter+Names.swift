import Foundation

extension NCBITaxdumpImporter {
    /// What some lines of `names.dmp` say of their tax ids, read without `nodes.dmp`, so that the
    /// two files are read at once, one on each core. Lines are kept in file order; the importer
    /// looks their tax ids up once `nodes.dmp` is read.
    struct NameTable: Sendable {
        /// A node's scientific name.
        struct Scientific: Sendable {
            var taxID: Int64
            /// The name; empty for a placeholder when placeholders are left out, as only its
            /// kind is then needed.
            var name: String
            /// The kind of placeholder the name is (nil when placeholders are kept).
            var placeholder: PlaceholderName?
        }

        var scientific: [Scientific] = []
        /// Common names and synonyms.
        var others: [(taxID: Int64, name: SourceName)] = []
        /// Malformed lines.
        var issues = SourceIssues()
    }

    /// Lines of `names.dmp` in a batch: enough that handing batches over costs nothing, few enough
    /// that the importer can look up what is read while the rest of the file is inflated.
    static let namesBatchLines = 65_536

    /// Reads `names.dmp` at `url`: every line with a name and a class the importer reads, handed
    /// to `deliver` in batches of `batchLines` lines, in file order. Stops early when `deliver`
    /// returns false.
    static func readNames(_ url: URL, dropPlaceholders: Bool, batchLines: Int = namesBatchLines, deliver: (NameTable) -> Bool) throws {
        let file = url.lastPathComponent
        var table = NameTable()
        var linesInBatch = 0
        var ranges: [Range<Int>] = []
        let names = try LineReader(url: url)
        while let line = try names.withNextLine({ bytes -> NameLine in
            fieldRanges(bytes, count: 4, into: &ranges)
            if ranges.isEmpty { return .skip }
            guard ranges.count >= 4, let taxID = integer(bytes, ranges[0]) else { return .malformed }
            guard !ranges[1].isEmpty else { return .skip }
            let nameBytes = UnsafeBufferPointer(rebasing: bytes[ranges[1]])
            let text = { String(decoding: nameBytes, as: UTF8.self) }
            switch NameClass(UnsafeBufferPointer(rebasing: bytes[ranges[3]])) {
            case .scientific:
                let kind = dropPlaceholders ? PlaceholderName.classify(utf8: nameBytes) : nil
                return .scientific(NameTable.Scientific(taxID: taxID, name: kind == nil ? text() : "", placeholder: kind))
            case .genbankCommon: return .other(taxID, SourceName(text(), lang: "en", type: .common, isPreferred: true))
            case .common: return .other(taxID, SourceName(text(), lang: "en", type: .common))
            case .synonym: return .other(taxID, SourceName(text(), lang: "la", type: .synonym))
            case nil: return .skip
            }
        }) {
            switch line {
            case .skip: continue
            case .malformed:
                let location = SourceLocation(file: file, line: names.lineNumber)
                table.issues.append(SourceIssue("expected 'tax_id | name | unique name | class'; line skipped", at: location))
            case .scientific(let name): table.scientific.append(name)
            case .other(let taxID, let name): table.others.append((taxID, name))
            }
            linesInBatch += 1
            if linesInBatch >= batchLines {
                guard deliver(table) else { return }
                table = NameTable()
                linesInBatch = 0
            }
        }
        _ = deliver(table)
    }

    /// A `names.dmp` line, read: a scientific name or another name of a tax id, or nothing to keep.
    enum NameLine {
        case skip, malformed
        case scientific(NameTable.Scientific)
        case other(Int64, SourceName)
    }

    /// `readNames` on a thread of its own, started at once; `next()` takes its batches in order.
    final class NameTableReading {
        private let batches: BoundedQueue<NameTable>

        init(_ url: URL, dropPlaceholders: Bool, batchLines: Int = namesBatchLines) {
            // Room for the whole file: the reader never waits for the importer, which takes
            // nothing until it has read nodes.dmp.
            let batches = BoundedQueue<NameTable>(capacity: Int(Int32.max))
            self.batches = batches
            let thread = Thread {
                do {
                    try NCBITaxdumpImporter.readNames(url, dropPlaceholders: dropPlaceholders, batchLines: batchLines) { batches.put($0) }
                    batches.finish(nil)
                } catch {
                    batches.finish(error)
                }
            }
            thread.name = "names.dmp"
            thread.start()
        }

        /// The next batch, nil after the last; throws the error that stopped the reading, after
        /// the batches read before it.
        func next() throws -> NameTable? { try batches.take() }

        /// A reader dropped before its last batch is taken lets the thread stop.
        deinit { batches.close() }
    }
}
