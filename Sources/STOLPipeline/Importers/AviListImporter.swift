import Foundation
import STOLEngine
import STOLProtocol

/// Reads the AviList checklist, extended CSV (gzip or plain): one row per order, family, genus,
/// species or subspecies.
///
/// Subspecies rows are skipped and only counted (`Output.subspeciesSkipped`), not reported as
/// issues: the engine's ranks stop at species, and folding a subspecies into its species would
/// only duplicate the species. A species' parents come from its own row (`Order`, `Family`, and
/// the first word of its name as genus), not from the row sequence, so a reordered file still
/// nests correctly.
public struct AviListImporter {
    public static let defaultCredit = "AviList Core Team. 2025. AviList v2025. doi:10.2173/avilist.v2025 (CC BY 4.0)"

    /// The taxa, plus the count of subspecies rows left out by design.
    public struct Output: Sendable {
        public var result: ImportResult
        public var subspeciesSkipped: Int
    }

    public var credit: String

    public init(credit: String = AviListImporter.defaultCredit) {
        self.credit = credit
    }

    public func parse(file: URL) throws -> Output {
        let fileName = file.lastPathComponent
        let reader = try DelimitedReader(url: file, format: .csv)
        let header = try DelimitedHeader(reading: reader)
        let rankColumn = try header.require("Taxon_rank")
        let orderColumn = try header.require("Order")
        let familyColumn = try header.require("Family")
        let nameColumn = try header.require("Scientific_name")
        let column = { (name: String) in header.index(of: name) }
        let familyEnglish = column("Family_English_name"), authority = column("Authority")
        let englishColumns = [column("English_name_AviList"), column("English_name_Clements_v2024"), column("English_name_BirdLife_v9")]
        let iucn = column("IUCN_Red_List_Category"), extinct = column("Extinct_or_possibly_extinct")
        let range = column("Range"), bibliography = column("Bibliographic_details")
        let descriptionURL = column("Original_description_URL"), protonym = column("Protonym")

        var builder = ChecklistBuilder(file: fileName)
        let classKey = builder.impliedLineage(className: "Aves")
        var subspecies = 0
        while let record = try reader.next(file: fileName, issues: &builder.result.skipped) {
            builder.result.rowsRead += 1
            let location = SourceLocation(file: fileName, line: record.line)
            func value(_ index: Int?) -> String { record.trimmed(index) }
            let rank = value(rankColumn).lowercased()
            let name = value(nameColumn)
            let orderName = ChecklistBuilder.capitalised(rank == "order" && value(orderColumn).isEmpty ? name : value(orderColumn))
            let familyName = ChecklistBuilder.capitalised(rank == "family" && value(familyColumn).isEmpty ? name : value(familyColumn))

            /// Declares the row's order, family and genus down to `level`.
            func lineage(through level: Rank) -> (key: String, index: Int)? {
                guard !orderName.isEmpty else {
                    builder.issue("\(rank) \(name) has no Order; row skipped", at: location)
                    return nil
                }
                var chain: [(Rank, String)] = [(.order, orderName)]
                if level > .order {
                    guard !familyName.isEmpty else {
                        builder.issue("\(rank) \(name) has no Family; row skipped", at: location)
                        return nil
                    }
                    chain.append((.family, familyName))
                }
                if level > .family {
                    chain.append((.genus, ChecklistBuilder.capitalised(String(name.split(separator: " ").first ?? ""))))
                }
                return builder.declare(chain, under: classKey, at: location)
            }

            switch rank {
            case "subspecies":
                subspecies += 1
            case "order":
                _ = lineage(through: .order)
            case "family":
                guard let family = lineage(through: .family) else { continue }
                let english = value(familyEnglish)
                if !english.isEmpty, !builder.result.taxa[family.index].names.contains(where: { $0.lang == "en" }) {
                    builder.result.taxa[family.index].names.append(SourceName(english, lang: "en", type: .common, isPreferred: true))
                }
            case "genus":
                guard !name.isEmpty, !name.contains(" ") else {
                    builder.issue("genus row needs a one-word Scientific_name; row skipped", at: location)
                    continue
                }
                guard let genus = lineage(through: .genus) else { continue }
                let (author, year) = Self.authority(value(authority))
                builder.result.taxa[genus.index].author = author
                builder.result.taxa[genus.index].year = year
                let cite = value(bibliography)
                if !cite.isEmpty {
                    builder.result.taxa[genus.index].references.append(SourceReference(cite, url: ChecklistBuilder.optional(value(descriptionURL))))
                }
            case "species":
                guard name.split(separator: " ").count >= 2 else {
                    builder.issue("species row needs a binomial Scientific_name, not '\(name)'; row skipped", at: location)
                    continue
                }
                guard let genus = lineage(through: .genus) else { continue }
                var taxon = SourceTaxon(
                    key: SourceTaxon.key(kingdom: ChecklistBuilder.kingdom, rank: .species, name: name), parentKey: genus.key,
                    rank: .species, scientificName: name)
                taxon.origin = location
                for english in englishColumns.map(value) where !english.isEmpty {
                    guard !taxon.names.contains(where: { $0.name.caseInsensitiveCompare(english) == .orderedSame }) else { continue }
                    taxon.names.append(SourceName(english, lang: "en", type: .common, isPreferred: taxon.names.isEmpty))
                }
                let original = Self.withoutAuthor(value(protonym))
                if ChecklistBuilder.isDistinctSynonym(original, of: name) {
                    taxon.names.append(SourceName(original, lang: "la", type: .synonym))
                }
                (taxon.author, taxon.year) = Self.authority(value(authority))
                taxon.conservation = ConservationStatus(lenient: value(iucn))
                if let status = Self.extinction(value(extinct)) { taxon.traits.append(SourceTrait("extinct", status)) }
                let rangeText = value(range)
                if !rangeText.isEmpty { taxon.traits.append(SourceTrait("range", rangeText)) }
                let cite = value(bibliography)
                if !cite.isEmpty { taxon.references.append(SourceReference(cite, url: ChecklistBuilder.optional(value(descriptionURL)))) }
                builder.result.taxa.append(taxon)
            default:
                builder.issue("unknown Taxon_rank '\(rank)'; row skipped", at: location)
            }
        }
        builder.result.sourceFiles.append(fileName)
        builder.result.credits.append(credit)
        return Output(result: builder.result, subspeciesSkipped: subspecies)
    }

    /// `(Linnaeus, C, 1758)` → (`Linnaeus, C`, 1758): the parentheses only say the species has
    /// moved genus since, which the engine's author field does not record.
    static func authority(_ text: String) -> (author: String?, year: Int?) {
        var text = text.trimmingCharacters(in: .whitespaces)
        if (text.hasPrefix("(") && text.hasSuffix(")")) || (text.hasPrefix("[") && text.hasSuffix("]")) {
            text = String(text.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
        }
        guard !text.isEmpty else { return (nil, nil) }
        if let comma = text.lastIndex(of: ","), let year = ChecklistBuilder.year(text[text.index(after: comma)...].trimmingCharacters(in: .whitespaces)) {
            let author = text[..<comma].trimmingCharacters(in: .whitespaces)
            return (ChecklistBuilder.optional(author), year)
        }
        return (text, nil)
    }

    /// A protonym without a trailing authority (`Xus yus Smith, 1900` → `Xus yus`). AviList
    /// protonyms are bare names, but other releases and hand edits have carried the author along.
    static func withoutAuthor(_ protonym: String) -> String {
        let words = protonym.split(separator: " ")
        guard words.count > 2, let last = words.last,
            last.trimmingCharacters(in: CharacterSet(charactersIn: "()[],.")).count == 4,
            last.contains(where: \.isNumber)
        else { return protonym }
        // The authority starts at the first word after genus and epithet that is capitalised, in
        // parentheses or a year (a subgenus in parentheses comes before the epithet, not after).
        let cut = words.indices.dropFirst(2).first { i in
            guard let c = words[i].first else { return false }
            return c.isUppercase || c == "(" || c.isNumber
        }
        return cut.map { words[..<$0].joined(separator: " ") } ?? protonym
    }

    /// `Extinct` / `(extinct)` → `yes`; other values (`possibly extinct`, `extinct in the wild`)
    /// lower-cased without parentheses; nil when empty.
    static func extinction(_ text: String) -> String? {
        let status = text.trimmingCharacters(in: CharacterSet(charactersIn: "() ")).lowercased()
        if status.isEmpty { return nil }
        return status == "extinct" ? "yes" : status
    }
}
