import Foundation

extension NCBITaxdumpImporter {
    /// What `names.dmp` says of each tax id, read without `nodes.dmp`, so that the two files are
    /// read at once, one on each core. Lines are kept in file order; the importer looks their tax
    /// ids up once both files are read.
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
        var issues: [SourceIssue] = []
    }

    /// Reads `names.dmp` at `url`: every line with a name and a class the importer reads.
    static func readNames(_ url: URL, dropPlaceholders: Bool) throws -> NameTable {
        let file = url.lastPathComponent
        var table = NameTable()
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
        }
        return table
    }

    /// A `names.dmp` line, read: a scientific name or another name of a tax id, or nothing to keep.
    enum NameLine {
        case skip, malformed
        case scientific(NameTable.Scientific)
        case other(Int64, SourceName)
    }

    /// `readNames` on a thread of its own, started at once; `table()` waits for it.
    final class NameTableReading {
        private let result = BoundedQueue<NameTable>(capacity: 1)

        init(_ url: URL, dropPlaceholders: Bool) {
            let result = self.result
            let thread = Thread {
                do {
                    _ = result.put(try NCBITaxdumpImporter.readNames(url, dropPlaceholders: dropPlaceholders))
                    result.finish(nil)
                } catch {
                    result.finish(error)
                }
            }
            thread.name = "names.dmp"
            thread.start()
        }

        /// The table, or the error that stopped the reading.
        func table() throws -> NameTable {
            guard let table = try result.take() else { throw SourceIssue("names.dmp was not read", at: nil) }
            return table
        }

        /// A reader dropped before its table is taken lets the thread drop the table.
        deinit { result.close() }
    }
}
