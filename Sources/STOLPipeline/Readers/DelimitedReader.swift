import Foundation
import STOLEngine

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
    /// A line longer than the line limit: it was read past, not kept, and reading goes on.
    case lineTooLong(line: Int, limit: Int)
    /// A field longer than the field limit: its record was read and dropped, and reading goes on.
    case fieldTooLong(line: Int, limit: Int)

    /// The record it concerns, when only that record is lost: the reader goes on with the next.
    public var skippedRecordLine: Int? {
        switch self {
        case .lineTooLong(let line, _), .fieldTooLong(let line, _): line
        default: nil
        }
    }

    /// What is wrong with the skipped record, without its line number.
    var skippedRecordProblem: String {
        switch self {
        case .lineTooLong(_, let limit): "the line is longer than \(limit) bytes"
        case .fieldTooLong(_, let limit): "a field is longer than \(limit) bytes"
        default: description
        }
    }

    public var description: String {
        switch self {
        case .unterminatedQuote(let line): "line \(line): quoted field is never closed"
        case .recordTooLong(let line, let limit): "line \(line): record longer than \(limit) bytes (unbalanced quote?)"
        case .missingColumn(let name, let available): "missing required column '\(name)' (the header has: \(available.joined(separator: ", ")))"
        case .emptyInput: "the file is empty (no header line)"
        case .lineTooLong(let line, let limit): "line \(line): longer than \(limit) bytes"
        case .fieldTooLong(let line, let limit): "line \(line): a field longer than \(limit) bytes"
        }
    }
}

/// Streams records of a CSV (RFC 4180) or TSV file.
///
/// CSV: fields separated by commas, optionally quoted; inside quotes a doubled quote is a quote
/// and commas and line breaks are data (a quoted CRLF reads as LF). Stray quotes inside an
/// unquoted field, or text after a closing quote, are kept as text rather than rejected.
/// TSV: fields separated by tabs, no quoting. Blank lines are skipped in both.
///
/// Length limits: a record holding a field longer than `maxFieldBytes` (64 KiB), or a line longer
/// than the line reader's limit (16 MiB), is skipped and reported (`fieldTooLong`,
/// `lineTooLong`), and reading goes on; neither is ever held whole. A quoted record running past
/// `maxRecordBytes` (an unbalanced quote) ends the file (`recordTooLong`).
public final class DelimitedReader {
    /// The default longest field: 64 KiB (the longest in the project's real sources is MDD's
    /// 12 KB country list).
    public static let defaultMaxFieldBytes = 1 << 16

    public enum Format: Sendable, Equatable {
        case csv, tsv
        /// Any one-byte separator, with a one-byte quote character (CSV rules) or none (TSV rules),
        /// as a Darwin Core Archive's `meta.xml` declares them.
        case delimited(separator: UInt8, quote: UInt8?)

        /// The separator byte and the quote byte (nil: fields are never quoted).
        var bytes: (separator: UInt8, quote: UInt8?) {
            switch self {
            case .csv: (0x2C, 0x22)
            case .tsv: (0x09, nil)
            case .delimited(let separator, let quote): (separator, quote)
            }
        }

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

        /// The field at `index` without leading and trailing ASCII white space (space, tab, CR,
        /// LF); cheap when there is none, which is nearly always.
        public func trimmed(_ index: Int?) -> String {
            let field = self[index]
            let utf8 = field.utf8
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
            guard let first = utf8.first, let last = utf8.last, isSpace(first) || isSpace(last) else { return field }
            guard let from = utf8.firstIndex(where: { !isSpace($0) }), let to = utf8.lastIndex(where: { !isSpace($0) }) else { return "" }
            return String(decoding: utf8[from...to], as: UTF8.self)
        }
    }

    public let format: Format
    public let maxRecordBytes: Int
    /// The longest field; a record with a longer one is skipped (`fieldTooLong`).
    public let maxFieldBytes: Int
    private let lines: LineReader

    private let separator: UInt8
    private let quote: UInt8?
    /// Set while reading a record that holds a field over `maxFieldBytes`.
    private var recordHasLongField = false

    public init(_ lines: LineReader, format: Format, maxRecordBytes: Int = 1 << 24, maxFieldBytes: Int = DelimitedReader.defaultMaxFieldBytes) {
        self.lines = lines
        self.format = format
        self.maxRecordBytes = maxRecordBytes
        self.maxFieldBytes = maxFieldBytes
        (separator, quote) = format.bytes
    }

    /// Reads `url` (gzip or plain).
    public convenience init(url: URL, format: Format, maxOutputBytes: Int? = nil) throws {
        self.init(try LineReader(url: url, maxOutputBytes: maxOutputBytes), format: format)
    }

    /// The next record; nil at the end. A `DelimitedError` whose `skippedRecordLine` is set
    /// lost only that record: the next call goes on after it.
    public func next() throws -> Record? {
        recordHasLongField = false
        do {
            let record = if let quote { try nextCSV(quote: quote) } else { try nextTSV() }
            if let record, recordHasLongField {
                throw DelimitedError.fieldTooLong(line: record.line, limit: maxFieldBytes)
            }
            return record
        } catch let error as LineTooLong {
            throw DelimitedError.lineTooLong(line: error.line, limit: error.limit)
        }
    }

    private func nextTSV() throws -> Record? {
        let separator = Int32(separator)
        while true {
            guard let fields = try lines.withNextLine({ bytes -> [String]? in
                guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
                var fields: [String] = []
                var from = 0
                while let tab = memchr(base + from, separator, bytes.count - from) {
                    let to = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(tab))
                    fields.append(self.field(base, from, to))
                    from = to + 1
                }
                fields.append(self.field(base, from, bytes.count))
                return fields
            }) else { return nil }
            if let fields { return Record(fields: fields, line: lines.lineNumber) }
        }
    }

    private func nextCSV(quote quoteByte: UInt8) throws -> Record? {
        let separator = Int32(separator), quote = Int32(quoteByte)
        var fields: [String] = []
        var field: [UInt8] = []  // the current field, while it is quoted
        var inQuotes = false
        var startLine = 0
        var recordBytes = 0
        while true {
            let more = try lines.withNextLine { bytes -> Bool in
                if startLine == 0 {
                    guard !bytes.isEmpty else { return true }  // a blank line between records
                    startLine = lines.lineNumber
                } else {
                    field.append(0x0A)  // a line break inside quotes
                }
                recordBytes += bytes.count + 1
                guard let base = bytes.baseAddress else { return inQuotes }
                let n = bytes.count
                var i = 0
                while true {
                    if inQuotes {
                        // Up to the next quote: either a doubled quote or the closing one.
                        guard let quote = memchr(base + i, quote, n - i) else {
                            field.append(contentsOf: UnsafeBufferPointer(start: base + i, count: n - i))
                            return true
                        }
                        let q = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(quote))
                        field.append(contentsOf: UnsafeBufferPointer(start: base + i, count: q - i))
                        if q + 1 < n, base[q + 1] == quoteByte {
                            field.append(quoteByte)
                            i = q + 2
                            continue
                        }
                        inQuotes = false
                        i = q + 1
                        // Text after the closing quote is kept, up to the comma.
                        let comma = memchr(base + i, separator, n - i).map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) } ?? n
                        field.append(contentsOf: UnsafeBufferPointer(start: base + i, count: comma - i))
                        if field.count > maxFieldBytes {
                            recordHasLongField = true
                            fields.append("")
                        } else {
                            fields.append(String(decoding: field, as: UTF8.self))
                        }
                        field.removeAll(keepingCapacity: true)
                        if comma == n { return false }
                        i = comma + 1
                        if i == n { fields.append(""); return false }
                    } else if i < n, base[i] == quoteByte {
                        inQuotes = true
                        i += 1
                    } else {
                        let comma = memchr(base + i, separator, n - i).map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) } ?? n
                        fields.append(self.field(base, i, comma))
                        if comma == n { return false }
                        i = comma + 1
                    }
                }
            }
            guard let more else {
                if startLine == 0 { return nil }
                throw DelimitedError.unterminatedQuote(line: startLine)
            }
            if startLine == 0 { continue }
            if !more { return Record(fields: fields, line: startLine) }
            if recordBytes > maxRecordBytes { throw DelimitedError.recordTooLong(line: startLine, limit: maxRecordBytes) }
        }
    }

    /// The text of `base[from..<to]`; a field over `maxFieldBytes` is not copied: it marks its
    /// record as refused.
    private func field(_ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> String {
        guard to - from <= maxFieldBytes else {
            recordHasLongField = true
            return ""
        }
        return String(decoding: UnsafeBufferPointer(start: base + from, count: to - from), as: UTF8.self)
    }
}

extension DelimitedReader {
    /// The next record, reporting each record skipped for its length (`lineTooLong`,
    /// `fieldTooLong`) in `issues` as a skipped row of `file`, and going on; any other error is
    /// thrown.
    public func next(file: String, issues: inout SourceIssues) throws -> Record? {
        while true {
            do {
                return try next()
            } catch let error as DelimitedError {
                guard let line = error.skippedRecordLine else { throw error }
                issues.append(SourceIssue("\(error.skippedRecordProblem); row skipped", at: SourceLocation(file: file, line: line), kind: .tooLong))
            }
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
