import Foundation

/// Why a delimited file could not be read.
public enum DelimitedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A quoted CSV field was still open at the end of the input.
    case unterminatedQuote(line: Int)
    /// One record grew past the reader's limit (usually a stray quote swallowing the file).
    case recordTooLong(line: Int, limit: Int)
    /// The header lacks a column the importer needs.
    case missingColumn(String, available: [String])
    /// There is no header line.
    case emptyInput

    public var description: String {
        switch self {
        case .unterminatedQuote(let line): "line \(line): quoted field is never closed"
        case .recordTooLong(let line, let limit): "line \(line): record longer than \(limit) bytes (unbalanced quote?)"
        case .missingColumn(let name, let available): "missing required column '\(name)' (the header has: \(available.joined(separator: ", ")))"
        case .emptyInput: "the file is empty (no header line)"
        }
    }
}

/// Streams records of a CSV (RFC 4180) or TSV file.
///
/// CSV: fields separated by commas, optionally quoted; inside quotes a doubled quote is a quote
/// and commas and line breaks are data (a quoted CRLF reads as LF). Stray quotes inside an
/// unquoted field, or text after a closing quote, are kept as text rather than rejected.
/// TSV: fields separated by tabs, no quoting. Blank lines are skipped in both.
public final class DelimitedReader {
    public enum Format: Sendable, Equatable {
        case csv, tsv

        /// `.csv` or `.tsv`, looking past a trailing `.gz`; nil when the name does not say.
        public static func fromFileName(_ name: String) -> Format? {
            var url = URL(fileURLWithPath: name)
            if url.pathExtension.lowercased() == "gz" { url.deletePathExtension() }
            switch url.pathExtension.lowercased() {
            case "csv": return .csv
            case "tsv", "tab": return .tsv
            default: return nil
            }
        }
    }

    /// One record and the 1-based line it starts on.
    public struct Record: Sendable, Equatable {
        public var fields: [String]
        public var line: Int

        public init(fields: [String], line: Int) {
            self.fields = fields
            self.line = line
        }

        /// The field at `index`, or "" for a short row or a missing column.
        public subscript(index: Int?) -> String {
            guard let index, index >= 0, index < fields.count else { return "" }
            return fields[index]
        }
    }

    public let format: Format
    public let maxRecordBytes: Int
    private let lines: LineReader

    public init(_ lines: LineReader, format: Format, maxRecordBytes: Int = 1 << 24) {
        self.lines = lines
        self.format = format
        self.maxRecordBytes = maxRecordBytes
    }

    /// Reads `url` (gzip or plain).
    public convenience init(url: URL, format: Format, maxOutputBytes: Int? = nil) throws {
        self.init(try LineReader(url: url, maxOutputBytes: maxOutputBytes), format: format)
    }

    /// The next record; nil at the end.
    public func next() throws -> Record? {
        switch format {
        case .tsv: try nextTSV()
        case .csv: try nextCSV()
        }
    }

    private func nextTSV() throws -> Record? {
        while true {
            guard let fields = try lines.withNextLine({ bytes -> [String]? in
                guard !bytes.isEmpty else { return nil }
                return bytes.split(separator: 0x09, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            }) else { return nil }
            if let fields { return Record(fields: fields, line: lines.lineNumber) }
        }
    }

    private func nextCSV() throws -> Record? {
        var fields: [String] = []
        var field: [UInt8] = []
        var inQuotes = false
        var quoted = false  // the current field opened with a quote
        var startLine = 0
        var recordBytes = 0
        while true {
            let more = try lines.withNextLine { bytes -> Bool in
                if startLine == 0 {
                    guard !bytes.isEmpty else { return true }  // blank line between records
                    startLine = lines.lineNumber
                } else {
                    field.append(0x0A)  // a line break inside quotes
                }
                recordBytes += bytes.count + 1
                var i = 0
                let n = bytes.count
                while i < n {
                    let b = bytes[i]
                    if inQuotes {
                        if b == 0x22 {
                            if i + 1 < n, bytes[i + 1] == 0x22 {
                                field.append(0x22)
                                i += 2
                                continue
                            }
                            inQuotes = false
                        } else {
                            field.append(b)
                        }
                    } else if b == 0x2C {
                        fields.append(String(decoding: field, as: UTF8.self))
                        field.removeAll(keepingCapacity: true)
                        quoted = false
                    } else if b == 0x22, field.isEmpty, !quoted {
                        inQuotes = true
                        quoted = true
                    } else {
                        field.append(b)
                    }
                    i += 1
                }
                return inQuotes
            }
            guard let more else {
                if startLine == 0 { return nil }
                throw DelimitedError.unterminatedQuote(line: startLine)
            }
            if startLine == 0 { continue }
            if !more {
                fields.append(String(decoding: field, as: UTF8.self))
                return Record(fields: fields, line: startLine)
            }
            if recordBytes > maxRecordBytes { throw DelimitedError.recordTooLong(line: startLine, limit: maxRecordBytes) }
        }
    }
}

/// Column positions by header name, so importers survive reordered or added columns.
public struct DelimitedHeader: Sendable {
    public let names: [String]
    private let positions: [String: Int]

    public init(_ record: DelimitedReader.Record) {
        names = record.fields.map { $0.trimmingCharacters(in: .whitespaces) }
        var positions: [String: Int] = [:]
        for (i, name) in names.enumerated() where positions[name] == nil { positions[name] = i }
        self.positions = positions
    }

    /// Reads the header record of `reader`.
    public init(reading reader: DelimitedReader) throws {
        guard let record = try reader.next() else { throw DelimitedError.emptyInput }
        self.init(record)
    }

    /// The column called `name` (exact match first, then ignoring case).
    public func index(of name: String) -> Int? {
        positions[name] ?? names.firstIndex { $0.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// The column called `name`, or an error naming it.
    public func require(_ name: String) throws(DelimitedError) -> Int {
        guard let index = index(of: name) else { throw .missingColumn(name, available: names) }
        return index
    }
}
