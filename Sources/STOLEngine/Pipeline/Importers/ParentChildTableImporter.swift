import Foundation

/// Reads a generic tree table with columns `id`, `parent_id`, `name` and optionally `rank`
/// (found by header name; other columns are ignored), such as the Open Tree of Life node table.
///
/// TSV or CSV by the extension before any `.gz` (`.tsv`, `.csv`), else by a tab in the header
/// line; gzip or plain. Ids are the taxa's ids, so they must be integers in 1…2^52−1; an empty
/// `parent_id` makes a root. Unnamed nodes are called `Unnamed clade <id>`.
///
/// Rank rule: a `rank` value that is one of the eight ranks (any case; `superkingdom` counts as
/// `domain`) is used. Any other value, or no `rank` column, leaves the taxon unranked, except
/// that a name shaped like a binomial (exactly two words, a capitalised word of letters and a
/// lower-case word of letters or hyphens, such as `Homo sapiens`) is taken to be a species.
public struct ParentChildTableImporter {
    public var credits: [String]

    public init(credits: [String] = []) {
        self.credits = credits
    }

    public func parse(file: URL) throws -> ImportResult {
        let fileName = file.lastPathComponent
        let reader = try DelimitedReader(url: file, format: try Self.format(of: file))
        let header = try DelimitedHeader(reading: reader)
        let idColumn = try header.require("id")
        let parentColumn = try header.require("parent_id")
        let nameColumn = try header.require("name")
        let rankColumn = header.index(of: "rank")

        var result = ImportResult()
        // Ids are checked for duplicates without a set while they only increase (Open Tree's
        // pre-order numbering); the first id out of order switches to a set.
        var lastID: Int64 = 0
        var seen: Set<Int64>? = nil
        while let record = try reader.next() {
            let location = SourceLocation(file: fileName, line: record.line)
            let idText = record[idColumn].trimmingCharacters(in: .whitespaces)
            guard let id = Self.id(idText) else {
                result.skipped.append(SourceIssue("id '\(idText)' is not an integer in 1…2^52−1; row skipped", at: location))
                continue
            }
            let parentText = record[parentColumn].trimmingCharacters(in: .whitespaces)
            var parentKey: String? = nil
            if !parentText.isEmpty {
                guard let parent = Self.id(parentText) else {
                    result.skipped.append(SourceIssue("parent_id '\(parentText)' of \(id) is not an integer in 1…2^52−1; row skipped", at: location))
                    continue
                }
                parentKey = "table|" + String(parent)
            }
            if seen == nil, id <= lastID { seen = Set(result.taxa.lazy.compactMap(\.fixedID)) }
            if seen != nil {
                guard seen!.insert(id).inserted else {
                    result.skipped.append(SourceIssue("duplicate id \(id); row skipped", at: location))
                    continue
                }
            }
            lastID = id

            var name = record[nameColumn].trimmingCharacters(in: .whitespaces)
            if name.isEmpty { name = "Unnamed clade \(id)" }
            var taxon = SourceTaxon(
                key: "table|" + String(id), parentKey: parentKey,
                rank: Self.rank(rankColumn.map { record[$0] }, name: name), scientificName: name)
            taxon.fixedID = id
            taxon.origin = location
            result.taxa.append(taxon)
        }
        result.sourceFiles.append(fileName)
        result.credits += credits
        return result
    }

    static func format(of file: URL) throws -> DelimitedReader.Format {
        if let format = DelimitedReader.Format.fromFileName(file.lastPathComponent) { return format }
        let header = try LineReader(url: file).nextLine() ?? ""
        return header.contains("\t") ? .tsv : .csv
    }

    static func id(_ text: String) -> Int64? {
        guard let id = Int64(text), id > 0, id <= StableID.maxID else { return nil }
        return id
    }

    /// The rank rule of the type's documentation.
    static func rank(_ value: String?, name: String) -> Rank? {
        let value = value?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        if value == "superkingdom" { return .domain }
        if let rank = Rank(rawValue: value) { return rank }
        return looksLikeBinomial(name) ? .species : nil
    }

    static func looksLikeBinomial(_ name: String) -> Bool {
        let words = name.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count == 2 else { return false }
        let genus = words[0], epithet = words[1]
        guard genus.count >= 2, let first = genus.first, first.isUppercase,
            genus.dropFirst().allSatisfy({ $0.isLetter && $0.isLowercase })
        else { return false }
        return epithet.count >= 2 && epithet.first!.isLetter
            && epithet.allSatisfy { ($0.isLetter && $0.isLowercase) || $0 == "-" }
    }
}
