import Foundation
import STOLEngine
import STOLProtocol

/// Reads a Darwin Core Archive (a `.zip` or a folder) through its `meta.xml`.
///
/// The core must have rowType Taxon. Every column is found by its Darwin Core term, never by
/// position or header text; the delimiter, quote character, encoding and header lines are the
/// ones `meta.xml` declares. The tree comes from `parentNameUsageID`; a file without parent ids
/// is built from its classification columns (kingdom … genus), creating the higher taxa. An
/// empty `scientificName` is built from genus and epithets. `taxonomicStatus` gives accepted,
/// doubtful or synonym; a synonym becomes a synonym name of the taxon its `acceptedNameUsageID`
/// names. The VernacularName extension gives common names (languages become BCP-47 tags); other
/// extensions are skipped and counted. Ranks below species are dropped, intermediate ranks folded.
public struct DwCAImporter: ChecklistArchiveFormat {
    public var limits = ChecklistArchive.Limits()

    /// An importer with the default limits; set `limits` to change them.
    public init() {}

    /// Reads an archive. Problems with the archive as a whole (no or malformed `meta.xml`, a
    /// missing core file, an unknown delimiter) are returned as issues with no taxa, so that
    /// `--strict` fails on them and a lenient build reports them.
    public func parse(_ archive: ChecklistArchive, named archiveName: String) throws -> Output {
        var result = archive.startResult()
        var counts = ChecklistCounts()
        // meta.xml at the top, or in the one folder the archive was zipped from.
        guard let metaEntry = archive.find("meta.xml") ?? archive.entries.first(where: { $0.split(separator: "/").count == 2 && $0.lowercased().hasSuffix("/meta.xml") }) else {
            result.skipped.append(SourceIssue("meta.xml is missing; the archive is skipped", at: SourceLocation(file: archiveName, line: 0), kind: .unreadableSource))
            return Output(result: result, counts: counts)
        }
        let base = metaEntry.contains("/") ? String(metaEntry[...metaEntry.lastIndex(of: "/")!]) : ""
        let meta: DwCAMeta
        do {
            meta = try DwCAMeta.parse(try archive.read(metaEntry), file: archive.describe(metaEntry))
        } catch let issue as SourceIssue {
            result.skipped.append(SourceIssue(issue.message + "; the archive is skipped", at: issue.location, kind: .unreadableSource))
            return Output(result: result, counts: counts)
        }
        if let title = Self.emlTitle(archive, base: base) { result.credits = [title] }
        guard meta.core.rowType.caseInsensitiveCompare("Taxon") == .orderedSame else {
            result.skipped.append(SourceIssue("the core's rowType is \(meta.core.rowType), not Taxon; the archive is skipped", at: SourceLocation(file: archive.describe(metaEntry), line: 0), kind: .unreadableSource))
            return Output(result: result, counts: counts)
        }
        let core: (entry: String, source: any ByteSource)
        do {
            core = try open(meta.core, in: archive, base: base)
        } catch let issue as SourceIssue {
            result.skipped.append(SourceIssue(issue.message + "; the archive is skipped", at: issue.location, kind: .unreadableSource))
            return Output(result: result, counts: counts)
        }
        let table = try readCore(core.source, spec: meta.core, file: archive.describe(core.entry), issues: &result.skipped)
        result.rowsRead = table.rowsRead

        var vernaculars: [VernacularRow] = []
        for ext in meta.extensions {
            let isVernacular = ext.rowType.caseInsensitiveCompare("VernacularName") == .orderedSame
            let opened: (entry: String, source: any ByteSource)
            do {
                opened = try open(ext, in: archive, base: base)
            } catch let issue as SourceIssue {
                result.skipped.append(SourceIssue(issue.message + "; the extension is skipped", at: issue.location, kind: .unreadableSource))
                continue
            }
            let file = archive.describe(opened.entry)
            let reader = DelimitedReader(LineReader(opened.source), format: ext.format)
            var rowCount = 0
            try Self.skipHeader(ext.headerLines, of: reader)
            while let record = try Self.next(reader, file: file, issues: &result.skipped) {
                rowCount += 1
                guard isVernacular else { continue }
                result.rowsRead += 1
                func value(_ term: String) -> String { Self.value(record, term, ext) }
                let taxonID = ext.idIndex.map { record.trimmed($0) } ?? ""
                guard !taxonID.isEmpty else {
                    result.skipped.append(SourceIssue("vernacular name without a core id; skipped", at: SourceLocation(file: file, line: record.line)))
                    continue
                }
                let preferred = ["true", "1", "yes", "t"].contains(value("isPreferredName").lowercased())
                let row = VernacularRow(
                    taxonID: taxonID, name: value("vernacularName"), language: value("language"), isPreferred: preferred,
                    location: SourceLocation(file: file, line: record.line))
                // Only names of rows the core kept are held.
                guard table.contains(id: taxonID) else {
                    if !row.name.trimmingCharacters(in: .whitespaces).isEmpty { result.skipped.append(NameUsageTree.danglingName(row)) }
                    continue
                }
                vernaculars.append(row)
            }
            if !isVernacular { counts.skippedTables[ext.rowType, default: 0] += rowCount }
        }

        let tree = NameUsageTree(namespace: "dwca|" + archiveName)
        let skippedTables = counts.skippedTables
        counts = tree.build(table, vernaculars: vernaculars, result: &result)
        counts.skippedTables = skippedTables
        if result.credits.isEmpty { result.credits = ["\(archiveName) (Darwin Core Archive)"] }
        return Output(result: result, counts: counts)
    }

    /// The rows of the core file, each id once.
    func readCore(_ source: any ByteSource, spec: DwCAMeta.FileSpec, file: String, issues: inout SourceIssues) throws -> NameUsageTable {
        let reader = DelimitedReader(LineReader(source), format: spec.format)
        try Self.skipHeader(spec.headerLines, of: reader)
        let classificationTerms: [(String, Rank)] = [("kingdom", .kingdom), ("phylum", .phylum), ("class", .class), ("order", .order), ("family", .family), ("genus", .genus)]
        var table = NameUsageTable()
        while let record = try Self.next(reader, file: file, issues: &issues) {
            func value(_ term: String) -> String { Self.value(record, term, spec) }
            var row = NameUsageRow(location: SourceLocation(file: file, line: record.line))
            row.id = spec.idIndex.map { record.trimmed($0) } ?? ""
            if row.id.isEmpty { row.id = value("taxonID") }
            row.parentID = value("parentNameUsageID")
            row.acceptedID = value("acceptedNameUsageID")
            row.status = value("taxonomicStatus")
            row.rank = value("taxonRank")
            row.scientificName = value("scientificName")
            row.authorship = value("scientificNameAuthorship")
            row.genus = value("genus")
            if row.genus.isEmpty { row.genus = value("genericName") }
            row.specificEpithet = value("specificEpithet")
            row.infraspecificEpithet = value("infraspecificEpithet")
            row.publishedIn = value("namePublishedIn")
            for (term, rank) in classificationTerms {
                let name = value(term)
                if !name.isEmpty { row.classification.append((rank, name)) }
            }
            table.add(row, issues: &issues)
        }
        if table.rowsRead == 0 { issues.append(SourceIssue("the core file has no rows", at: SourceLocation(file: file, line: 0), kind: .unreadableSource, rows: 0)) }
        return table
    }

    /// Reads past `lines` header lines, whatever their length (their text is never used).
    static func skipHeader(_ lines: Int, of reader: DelimitedReader) throws {
        for _ in 0..<lines {
            do {
                _ = try reader.next()
            } catch let error as DelimitedError where error.skippedRecordLine != nil {
                continue
            }
        }
    }

    /// The next record. One over the length limits is reported and skipped; a malformed one (an
    /// unclosed quote, a runaway record) ends the file with an issue naming the file and line.
    static func next(_ reader: DelimitedReader, file: String, issues: inout SourceIssues) throws -> DelimitedReader.Record? {
        do {
            return try reader.next(file: file, issues: &issues)
        } catch let error as DelimitedError {
            issues.append(SourceIssue("\(error); the rest of the file is skipped", at: SourceLocation(file: file, line: 0), kind: .unreadableSource))
            return nil
        }
    }

    /// A term's value in `record`: its column, or the default `meta.xml` gives.
    static func value(_ record: DelimitedReader.Record, _ term: String, _ spec: DwCAMeta.FileSpec) -> String {
        if let index = spec.columns[term] {
            let v = record.trimmed(index)
            if !v.isEmpty { return v }
        }
        return spec.defaults[term] ?? ""
    }

    /// Opens the file `spec` names, refusing locations that are not plain relative paths and
    /// encodings other than UTF-8 and Latin-1.
    func open(_ spec: DwCAMeta.FileSpec, in archive: ChecklistArchive, base: String) throws -> (entry: String, source: any ByteSource) {
        let location = SourceLocation(file: archive.describe(base + "meta.xml"), line: 0)
        guard ChecklistArchive.isPlainRelativePath(spec.location) else {
            throw SourceIssue("file location '\(spec.location)' of \(spec.rowType) is not a plain relative path", at: location)
        }
        guard let entry = archive.find(base + spec.location) else {
            throw SourceIssue("\(spec.rowType) file \(spec.location) is missing from the archive", at: location)
        }
        let encoding = spec.encoding.lowercased().replacingOccurrences(of: "-", with: "").replacingOccurrences(of: "_", with: "")
        let source = try archive.open(entry)
        switch encoding {
        case "utf8", "", "ascii", "usascii": return (entry, source)
        case "iso88591", "latin1", "cp1252", "windows1252": return (entry, Latin1Source(source))
        default: throw SourceIssue("encoding \(spec.encoding) of \(spec.location) is not supported (UTF-8 or ISO-8859-1)", at: location)
        }
    }

    /// The dataset title in `eml.xml`, for the credits.
    static func emlTitle(_ archive: ChecklistArchive, base: String) -> String? {
        guard let entry = archive.find(base + "eml.xml"), let data = try? archive.read(entry, max: 4 << 20),
            let text = String(data: data, encoding: .utf8),
            let open = text.range(of: "<title"), let close = text.range(of: "</title>", range: open.upperBound..<text.endIndex),
            let gt = text[open.upperBound..<close.lowerBound].firstIndex(of: ">")
        else { return nil }
        let title = text[text.index(after: gt)..<close.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        return title.isEmpty ? nil : title
    }
}

/// Re-encodes ISO-8859-1 bytes as UTF-8.
final class Latin1Source: ByteSource {
    private let source: any ByteSource
    private var pending: [UInt8] = []

    init(_ source: any ByteSource) { self.source = source }

    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
        if pending.isEmpty {
            var raw: [UInt8] = []
            guard try source.read(into: &raw, max: max(buffer.count / 2, 1)) > 0 else { return 0 }
            pending.reserveCapacity(raw.count * 2)
            for byte in raw {
                if byte < 0x80 {
                    pending.append(byte)
                } else {
                    pending.append(0xC0 | (byte >> 6))
                    pending.append(0x80 | (byte & 0x3F))
                }
            }
        }
        let n = min(buffer.count, pending.count)
        for i in 0..<n { buffer[i] = pending[i] }
        pending.removeFirst(n)
        return n
    }
}
