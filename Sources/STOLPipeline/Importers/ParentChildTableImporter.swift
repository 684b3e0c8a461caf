import Foundation
import STOLEngine
import STOLProtocol

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
        while let record = try reader.next(file: fileName, issues: &result.skipped) {
            result.rowsRead += 1
            let location = SourceLocation(file: fileName, line: record.line)
            let idText = record.trimmed(idColumn)
            guard let id = Self.id(idText) else {
                result.skipped.append(SourceIssue("id '\(idText)' is not an integer in 1…2^52−1; row skipped", at: location))
                continue
            }
            let parentText = record.trimmed(parentColumn)
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
                    result.skipped.append(SourceIssue("duplicate id \(id); row skipped", at: location, kind: .duplicateID))
                    continue
                }
            }
            lastID = id

            var name = record.trimmed(nameColumn)
            if name.isEmpty { name = "Unnamed clade \(id)" }
            var taxon = SourceTaxon(
                key: "table|" + String(id), parentKey: parentKey,
                rank: Self.rank(rankColumn.map { record.trimmed($0) }, name: name), scientificName: name)
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

    /// A decimal id in 1…2^52−1.
    static func id(_ text: String) -> Int64? {
        var value: Int64 = 0
        var digits = 0
        for byte in text.utf8 {
            guard byte >= 0x30, byte <= 0x39, digits < 16 else { return nil }
            value = value * 10 + Int64(byte - 0x30)
            digits += 1
        }
        guard digits > 0, value > 0, value <= StableID.maxID else { return nil }
        return value
    }

    /// The rank rule of the type's documentation.
    static func rank(_ value: String?, name: String) -> Rank? {
        if let value, !value.isEmpty {
            let lower = value.lowercased()
            if lower == "superkingdom" { return .domain }
            // The eight ranks only: a generic table's subspecies stay unranked, as documented
            // (the ranks below species are kept from NCBI's named ones alone).
            if let rank = Rank(rawValue: lower), !rank.isBelowSpecies { return rank }
        }
        return looksLikeBinomial(name) ? .species : nil
    }

    /// `Genus epithet`: a capital and lower-case letters, one space, lower-case letters or hyphens.
    static func looksLikeBinomial(_ name: String) -> Bool {
        let ascii = name.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            var i = 0
            let n = bytes.count
            func isLower(_ b: UInt8) -> Bool { b >= 0x61 && b <= 0x7A }
            while i < n {
                if bytes[i] >= 0x80 { return nil }
                i += 1
            }
            guard n >= 5, bytes[0] >= 0x41, bytes[0] <= 0x5A else { return false }
            i = 1
            while i < n, isLower(bytes[i]) { i += 1 }
            guard i >= 2, i < n, bytes[i] == 0x20 else { return false }
            i += 1
            let epithet = i
            guard i < n, isLower(bytes[i]) else { return false }
            while i < n, isLower(bytes[i]) || bytes[i] == 0x2D { i += 1 }
            return i == n && n - epithet >= 2
        }
        if let ascii, let verdict = ascii { return verdict }
        // Non-ASCII letters (`Cænolestes`): the same rule on characters.
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
