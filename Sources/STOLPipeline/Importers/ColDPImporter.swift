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
        var rows: [NameUsageRow] = []
        if let entry = tables["nameusage"] {
            try read(entry, in: archive, issues: &result.skipped) { record, header, location in
                var row = Self.nameFields(record, header, location: location)
                row.id = record.trimmed(header.index(of: "ID"))
                let parent = record.trimmed(header.index(of: "parentID"))
                let status = NameUsageTree.status(row.status, hasAcceptedPointer: false)
                if status == .synonym || status == .misapplied { row.acceptedID = parent } else { row.parentID = parent }
                rows.append(row)
            }
        } else if let nameEntry = tables["name"], let taxonEntry = tables["taxon"] {
            var names: [String: NameUsageRow] = [:]
            try read(nameEntry, in: archive, issues: &result.skipped) { record, header, location in
                let id = record.trimmed(header.index(of: "ID"))
                if names[id] == nil { names[id] = Self.nameFields(record, header, location: location) }
            }
            func named(_ nameID: String, _ location: SourceLocation, issues: inout [SourceIssue]) -> NameUsageRow? {
                guard var row = names[nameID] else {
                    issues.append(SourceIssue("nameID \(nameID) is not in \(archive.describe(nameEntry)); row skipped", at: location))
                    return nil
                }
                row.location = location
                row.status = ""
                return row
            }
            var issues: [SourceIssue] = []
            try read(taxonEntry, in: archive, issues: &result.skipped) { record, header, location in
                guard var row = named(record.trimmed(header.index(of: "nameID")), location, issues: &issues) else { return }
                row.id = record.trimmed(header.index(of: "ID"))
                row.parentID = record.trimmed(header.index(of: "parentID"))
                let provisional = ["true", "1", "yes"].contains(record.trimmed(header.index(of: "provisional")).lowercased())
                let status = record.trimmed(header.index(of: "status"))
                row.status = provisional ? "provisionally accepted" : (status.isEmpty ? "accepted" : status)
                rows.append(row)
            }
            if let synonymEntry = tables["synonym"] {
                try read(synonymEntry, in: archive, issues: &result.skipped) { record, header, location in
                    guard var row = named(record.trimmed(header.index(of: "nameID")), location, issues: &issues) else { return }
                    let id = record.trimmed(header.index(of: "ID"))
                    row.id = "synonym " + (id.isEmpty ? "\(location)" : id)
                    row.acceptedID = record.trimmed(header.index(of: "taxonID"))
                    let status = record.trimmed(header.index(of: "status"))
                    row.status = status.isEmpty ? "synonym" : status
                    rows.append(row)
                }
            }
            result.skipped += issues
        } else {
            result.skipped.append(SourceIssue("no NameUsage table, nor Name and Taxon tables; the package is skipped", at: SourceLocation(file: packageName, line: 0)))
            return Output(result: result, counts: counts)
        }

        var vernaculars: [VernacularRow] = []
        if let entry = tables["vernacularname"] {
            try read(entry, in: archive, issues: &result.skipped) { record, header, location in
                let preferred = ["true", "1", "yes"].contains(record.trimmed(header.index(of: "preferred")).lowercased())
                vernaculars.append(VernacularRow(
                    taxonID: record.trimmed(header.index(of: "taxonID")), name: record.trimmed(header.index(of: "name")),
                    language: record.trimmed(header.index(of: "language")), isPreferred: preferred, location: location))
            }
        }
        for entry in others {
            var n = 0
            try read(entry, in: archive, issues: &result.skipped) { _, _, _ in n += 1 }
            counts.skippedTables[entry, default: 0] += n
        }

        let built = NameUsageTree(namespace: "coldp|" + packageName).build(rows, vernaculars: vernaculars, result: &result)
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

    /// Calls `body` for each record of `entry` after its header; a malformed file ends with an issue.
    func read(
        _ entry: String, in archive: ChecklistArchive, issues: inout [SourceIssue],
        _ body: (DelimitedReader.Record, DelimitedHeader, SourceLocation) throws -> Void
    ) throws {
        let file = archive.describe(entry)
        let format: DelimitedReader.Format = entry.lowercased().hasSuffix(".csv") ? .csv : .tsv
        let reader = DelimitedReader(LineReader(try archive.open(entry)), format: format)
        guard let first = try DwCAImporter.next(reader, file: file, issues: &issues) else { return }
        var headerRecord = first
        headerRecord.fields = first.fields.map { field in
            guard let colon = field.firstIndex(of: ":") else { return field }
            return String(field[field.index(after: colon)...])
        }
        let header = DelimitedHeader(headerRecord)
        while let record = try DwCAImporter.next(reader, file: file, issues: &issues) {
            try body(record, header, SourceLocation(file: file, line: record.line))
        }
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
