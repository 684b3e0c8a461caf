import Foundation
import STOLEngine
import STOLProtocol

/// Reads a Catalogue of Life Data Package (a `.zip` or a folder).
///
/// Tables: NameUsage, or Name + Taxon + Synonym; and VernacularName. File names match ignoring
/// case, `-` and `_` (`vernacular-name.tsv` is VernacularName); `.csv` files are CSV, others
/// tab-separated; columns are found by header name (an optional `col:` prefix is ignored).
/// Statuses: accepted; provisionally accepted (kept as doubtful); synonym and ambiguous synonym
/// (a synonym name of each accepted name it points at); misapplied (kept as a synonym name and
/// counted). `parentID` is the parent of an accepted name and the accepted name of a synonym.
/// ISO 639-3 languages become BCP-47 tags. Ranks below species are dropped, intermediate folded.
public struct ColDPImporter: ChecklistArchiveFormat {
    public var limits = ChecklistArchive.Limits()

    /// An importer with the default limits; set `limits` to change them.
    public init() {}

    public func parse(_ archive: ChecklistArchive, named packageName: String) throws -> Output {
        var result = archive.startResult()
        var counts = ChecklistCounts()
        var tables: [String: String] = [:]  // normalised table name -> entry
        var others: [String] = []
        for entry in archive.entries {
            let table = Self.tableName(entry)
            if ["nameusage", "name", "taxon", "synonym", "vernacularname"].contains(table) {
                if tables[table] == nil { tables[table] = entry }
            } else if entry.lowercased().hasSuffix(".tsv") || entry.lowercased().hasSuffix(".csv") || entry.lowercased().hasSuffix(".txt") {
                others.append(entry)
            }
        }
        var table = NameUsageTable()
        if let entry = tables["nameusage"] {
            try read(entry, in: archive, issues: &result.skipped) { record, header, location, issues in
                var row = Self.nameFields(record, header, location: location)
                row.id = record.trimmed(header.index(of: "ID"))
                let parent = record.trimmed(header.index(of: "parentID"))
                let status = NameUsageTree.status(row.status, hasAcceptedPointer: false)
                if status == .synonym || status == .misapplied { row.acceptedID = parent } else { row.parentID = parent }
                table.add(row, issues: &issues)
            }
        } else if let nameEntry = tables["name"], let taxonEntry = tables["taxon"] {
            var names: [String: NameUsageRow] = [:]
            try read(nameEntry, in: archive, issues: &result.skipped) { record, header, location, _ in
                let id = record.trimmed(header.index(of: "ID"))
                if names[id] == nil { names[id] = Self.nameFields(record, header, location: location) }
            }
            func named(_ nameID: String, _ location: SourceLocation, issues: inout SourceIssues) -> NameUsageRow? {
                guard var row = names[nameID] else {
                    issues.append(SourceIssue("nameID \(nameID) is not in \(archive.describe(nameEntry)); row skipped", at: location, kind: .danglingPointer))
                    return nil
                }
                row.location = location
                row.status = ""
                return row
            }
            try read(taxonEntry, in: archive, issues: &result.skipped) { record, header, location, issues in
                guard var row = named(record.trimmed(header.index(of: "nameID")), location, issues: &issues) else { return }
                row.id = record.trimmed(header.index(of: "ID"))
                row.parentID = record.trimmed(header.index(of: "parentID"))
                let provisional = ["true", "1", "yes"].contains(record.trimmed(header.index(of: "provisional")).lowercased())
                let status = record.trimmed(header.index(of: "status"))
                row.status = provisional ? "provisionally accepted" : (status.isEmpty ? "accepted" : status)
                table.add(row, issues: &issues)
            }
            if let synonymEntry = tables["synonym"] {
                try read(synonymEntry, in: archive, issues: &result.skipped) { record, header, location, issues in
                    guard var row = named(record.trimmed(header.index(of: "nameID")), location, issues: &issues) else { return }
                    let id = record.trimmed(header.index(of: "ID"))
                    row.id = "synonym " + (id.isEmpty ? "\(location)" : id)
                    row.acceptedID = record.trimmed(header.index(of: "taxonID"))
                    let status = record.trimmed(header.index(of: "status"))
                    row.status = status.isEmpty ? "synonym" : status
                    table.add(row, issues: &issues)
                }
            }
        } else {
            result.skipped.append(SourceIssue("no NameUsage table, nor Name and Taxon tables; the package is skipped", at: SourceLocation(file: packageName, line: 0), kind: .unreadableSource))
            return Output(result: result, counts: counts)
        }

        result.rowsRead = table.rowsRead
        var vernaculars: [VernacularRow] = []
        if let entry = tables["vernacularname"] {
            let vernacularRows = try read(entry, in: archive, issues: &result.skipped) { record, header, location, issues in
                let preferred = ["true", "1", "yes"].contains(record.trimmed(header.index(of: "preferred")).lowercased())
                let row = VernacularRow(
                    taxonID: record.trimmed(header.index(of: "taxonID")), name: record.trimmed(header.index(of: "name")),
                    language: record.trimmed(header.index(of: "language")), isPreferred: preferred, location: location)
                // Only names of rows the table kept are held.
                guard table.contains(id: row.taxonID) else {
                    if !row.name.isEmpty { issues.append(NameUsageTree.danglingName(row)) }
                    return
                }
                vernaculars.append(row)
            }
            result.rowsRead += vernacularRows
        }
        for entry in others {
            counts.skippedTables[entry, default: 0] += try read(entry, in: archive, issues: &result.skipped) { _, _, _, _ in }
        }

        let built = NameUsageTree(namespace: "coldp|" + packageName).build(table, vernaculars: vernaculars, result: &result)
        let skippedTables = counts.skippedTables
        counts = built
        counts.skippedTables = skippedTables
        result.credits = [Self.title(archive) ?? "\(packageName) (Catalogue of Life Data Package)"]
        return Output(result: result, counts: counts)
    }

    /// `Vernacular-Name.tsv` → `vernacularname`.
    static func tableName(_ entry: String) -> String {
        let file = entry.split(separator: "/").last.map(String.init) ?? entry
        let stem = file.split(separator: ".").first.map(String.init) ?? file
        return stem.lowercased().filter { $0 != "-" && $0 != "_" }
    }

    /// The name columns shared by NameUsage and Name.
    static func nameFields(_ record: DelimitedReader.Record, _ header: DelimitedHeader, location: SourceLocation) -> NameUsageRow {
        var row = NameUsageRow(location: location)
        row.status = record.trimmed(header.index(of: "status"))
        row.rank = record.trimmed(header.index(of: "rank"))
        row.scientificName = record.trimmed(header.index(of: "scientificName"))
        row.authorship = record.trimmed(header.index(of: "authorship"))
        row.genus = record.trimmed(header.index(of: "genus") ?? header.index(of: "genericName"))
        row.specificEpithet = record.trimmed(header.index(of: "specificEpithet"))
        row.infraspecificEpithet = record.trimmed(header.index(of: "infraspecificEpithet"))
        row.publishedIn = record.trimmed(header.index(of: "publishedIn"))
        let classification: [(String, Rank)] = [("kingdom", .kingdom), ("phylum", .phylum), ("class", .class), ("order", .order), ("family", .family)]
        for (column, rank) in classification {
            let name = record.trimmed(header.index(of: column))
            if !name.isEmpty { row.classification.append((rank, name)) }
        }
        if !row.genus.isEmpty { row.classification.append((.genus, row.genus)) }
        return row
    }

    /// Calls `body` for each record of `entry` after its header, with `issues` for what it finds;
    /// a malformed file ends with an issue. Returns how many records there were.
    @discardableResult
    func read(
        _ entry: String, in archive: ChecklistArchive, issues: inout SourceIssues,
        _ body: (DelimitedReader.Record, DelimitedHeader, SourceLocation, inout SourceIssues) throws -> Void
    ) throws -> Int {
        let file = archive.describe(entry)
        let format: DelimitedReader.Format = entry.lowercased().hasSuffix(".csv") ? .csv : .tsv
        let reader = DelimitedReader(LineReader(try archive.open(entry)), format: format)
        // The header names the columns: one over the length limits costs the whole file.
        let headerLine: DelimitedReader.Record?
        do {
            headerLine = try reader.next()
        } catch let error as DelimitedError {
            issues.append(SourceIssue("header: \(error.skippedRecordProblem); the file is skipped", at: SourceLocation(file: file, line: 1), kind: .unreadableSource))
            return 0
        }
        guard let first = headerLine else { return 0 }
        var headerRecord = first
        headerRecord.fields = first.fields.map { field in
            guard let colon = field.firstIndex(of: ":") else { return field }
            return String(field[field.index(after: colon)...])
        }
        let header = DelimitedHeader(headerRecord)
        var records = 0
        while let record = try DwCAImporter.next(reader, file: file, issues: &issues) {
            records += 1
            try body(record, header, SourceLocation(file: file, line: record.line), &issues)
        }
        return records
    }

    /// The package title in `metadata.yaml`, for the credits.
    static func title(_ archive: ChecklistArchive) -> String? {
        guard let entry = archive.entries.first(where: { tableName($0) == "metadata" }),
            let data = try? archive.read(entry, max: 4 << 20), let text = String(data: data, encoding: .utf8)
        else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("title:") {
            let title = line.dropFirst("title:".count).trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            return title.isEmpty ? nil : title
        }
        return nil
    }
}
