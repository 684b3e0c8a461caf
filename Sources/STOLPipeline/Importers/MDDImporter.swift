import Foundation
import STOLEngine
import STOLProtocol

/// Reads the Mammal Diversity Database species CSV (gzip or plain), one row per species.
///
/// Columns are found by header name, and `NA` reads as empty. The lineage above order is implied
/// (Eukaryota, Animalia, Chordata, Mammalia) with the same keys as every other checklist, so it
/// merges with birds and the `.taxa` files. MDD's finer ranks (suborder, subfamily, tribe,
/// subgenus, ...) have no place among the eight ranks and are not read.
public struct MDDImporter {
    public static let defaultCredit = "Mammal Diversity Database (2025). v2.1. ASM. CC BY 4.0"

    public var credit: String

    public init(credit: String = MDDImporter.defaultCredit) {
        self.credit = credit
    }

    public func parse(file: URL) throws -> ImportResult {
        let fileName = file.lastPathComponent
        let reader = try DelimitedReader(url: file, format: .csv)
        let header = try DelimitedHeader(reading: reader)
        let sciName = try header.require("sciName")
        let order = try header.require("order")
        let family = try header.require("family")
        let genus = try header.require("genus")
        let column = { (name: String) in header.index(of: name) }
        let mainCommon = column("mainCommonName"), otherCommon = column("otherCommonNames")
        let original = column("originalNameCombination")
        let author = column("authoritySpeciesAuthor"), year = column("authoritySpeciesYear")
        let citation = column("authoritySpeciesCitation"), link = column("authoritySpeciesLink")
        let iucn = column("iucnStatus"), realm = column("biogeographicRealm"), continent = column("continentDistribution")
        let extinct = column("extinct"), domestic = column("domestic")

        var builder = ChecklistBuilder(file: fileName)
        let classKey = builder.impliedLineage(className: "Mammalia")
        while let record = try reader.next(file: fileName, issues: &builder.result.skipped) {
            builder.result.rowsRead += 1
            let location = SourceLocation(file: fileName, line: record.line)
            func value(_ index: Int?) -> String {
                let text = record.trimmed(index)
                return text == "NA" ? "" : text
            }
            let name = value(sciName).replacingOccurrences(of: "_", with: " ")
            let orderName = ChecklistBuilder.capitalised(value(order))
            let familyName = ChecklistBuilder.capitalised(value(family))
            let genusName = ChecklistBuilder.capitalised(value(genus))
            let missing = [("sciName", name), ("order", orderName), ("family", familyName), ("genus", genusName)].filter { $0.1.isEmpty }.map(\.0)
            guard missing.isEmpty else {
                builder.issue("row without \(missing.joined(separator: ", ")) skipped", at: location)
                continue
            }
            guard name.hasPrefix(genusName + " ") else {
                builder.issue("species \(name) does not start with its genus \(genusName); skipped", at: location)
                continue
            }
            guard let genusKey = builder.declare([(.order, orderName), (.family, familyName), (.genus, genusName)], under: classKey, at: location)?.key
            else { continue }

            var taxon = SourceTaxon(
                key: SourceTaxon.key(kingdom: ChecklistBuilder.kingdom, rank: .species, name: name), parentKey: genusKey,
                rank: .species, scientificName: name)
            taxon.origin = location
            let main = value(mainCommon)
            if !main.isEmpty { taxon.names.append(SourceName(main, lang: "en", type: .common, isPreferred: true)) }
            for other in value(otherCommon).split(separator: "|") {
                let other = other.trimmingCharacters(in: .whitespaces)
                if !other.isEmpty, !taxon.names.contains(where: { $0.name == other }) {
                    taxon.names.append(SourceName(other, lang: "en", type: .common))
                }
            }
            let originalName = value(original).replacingOccurrences(of: "_", with: " ")
            if ChecklistBuilder.isDistinctSynonym(originalName, of: name) {
                taxon.names.append(SourceName(originalName, lang: "la", type: .synonym))
            }
            taxon.author = ChecklistBuilder.optional(value(author))
            taxon.year = ChecklistBuilder.year(value(year))
            taxon.conservation = ConservationStatus(lenient: value(iucn))
            let cite = value(citation)
            if !cite.isEmpty { taxon.references.append(SourceReference(cite, url: ChecklistBuilder.optional(value(link)))) }
            let realmText = ChecklistBuilder.list(value(realm))
            if !realmText.isEmpty { taxon.traits.append(SourceTrait("realm", realmText)) }
            let continentText = ChecklistBuilder.list(value(continent))
            if !continentText.isEmpty { taxon.traits.append(SourceTrait("continent", continentText)) }
            if value(extinct) == "1" { taxon.traits.append(SourceTrait("extinct", "yes")) }
            if value(domestic) == "1" { taxon.traits.append(SourceTrait("domestic", "yes")) }
            builder.result.taxa.append(taxon)
        }
        builder.result.sourceFiles.append(fileName)
        builder.result.credits.append(credit)
        return builder.result
    }
}

/// Shared by the checklist importers (MDD, AviList): the implied lineage above the class, and
/// higher taxa declared once each, with a row that places one under a different parent reported.
struct ChecklistBuilder {
    static let kingdom = "Animalia"

    let file: String
    var result = ImportResult()
    private var declared: [String: Int] = [:]

    init(file: String) {
        self.file = file
    }

    mutating func issue(_ message: String, at location: SourceLocation) {
        result.skipped.append(SourceIssue(message, at: location))
    }

    /// Declares Eukaryota > Animalia > Chordata > `className`; returns the class key.
    mutating func impliedLineage(className: String) -> String {
        let location = SourceLocation(file: file, line: 1)
        let domain = SourceTaxon.key(kingdom: nil, rank: .domain, name: "Eukaryota")
        let kingdom = SourceTaxon.key(kingdom: nil, rank: .kingdom, name: Self.kingdom)
        let lineage: [(Rank, String, String, String?)] = [
            (.domain, "Eukaryota", domain, nil),
            (.kingdom, Self.kingdom, kingdom, domain),
            (.phylum, "Chordata", SourceTaxon.key(kingdom: Self.kingdom, rank: .phylum, name: "Chordata"), kingdom),
        ]
        for (rank, name, key, parent) in lineage where declared[key] == nil {
            var taxon = SourceTaxon(key: key, parentKey: parent, rank: rank, scientificName: name)
            taxon.origin = location
            declared[key] = result.taxa.count
            result.taxa.append(taxon)
        }
        let phylum = lineage[2].2
        return declare(.class, className, parent: phylum, at: location)!.key
    }

    /// The taxon of `rank` and `name` under `parent`, created on first use. Nil (and an issue)
    /// when an earlier row put it under another parent: the row is skipped.
    mutating func declare(_ rank: Rank, _ name: String, parent: String, at location: SourceLocation) -> (key: String, index: Int)? {
        declare([(rank, name)], under: parent, at: location)
    }

    /// Declares a chain of taxa, each the parent of the next, below `parent`; returns the last.
    /// Nothing is created when any link contradicts an earlier row.
    mutating func declare(_ chain: [(Rank, String)], under parent: String, at location: SourceLocation) -> (key: String, index: Int)? {
        var above = parent
        for (rank, name) in chain {
            let key = SourceTaxon.key(kingdom: Self.kingdom, rank: rank, name: name)
            if let index = declared[key], let existing = result.taxa[index].parentKey, existing != above {
                let place = result.taxa[index].origin.map { " at line \($0.line)" } ?? ""
                issue("\(rank.rawValue) \(name) is under \(Self.displayName(above)) here but under \(Self.displayName(existing))\(place); row skipped", at: location)
                return nil
            }
            above = key
        }
        above = parent
        var last: (key: String, index: Int)? = nil
        for (rank, name) in chain {
            let key = SourceTaxon.key(kingdom: Self.kingdom, rank: rank, name: name)
            if let index = declared[key] {
                last = (key, index)
            } else {
                var taxon = SourceTaxon(key: key, parentKey: above, rank: rank, scientificName: name)
                taxon.origin = location
                declared[key] = result.taxa.count
                result.taxa.append(taxon)
                last = (key, result.taxa.count - 1)
            }
            above = key
        }
        return last
    }

    /// `rank name` from a checklist key `kingdom|rank|name`.
    private static func displayName(_ key: String) -> String {
        key.split(separator: "|", omittingEmptySubsequences: false).dropFirst().joined(separator: " ")
    }

    /// `CARNIVORA` → `Carnivora` (some MDD releases write orders and families in capitals).
    static func capitalised(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.uppercased() + name.dropFirst().lowercased()
    }

    /// `a|b` → `a, b`.
    static func list(_ text: String) -> String {
        text.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: ", ")
    }

    static func optional(_ text: String) -> String? { text.isEmpty ? nil : text }

    static func year(_ text: String) -> Int? {
        guard let year = Int(text), (1700...2100).contains(year) else { return nil }
        return year
    }

    /// An original combination worth listing as a synonym: present and not the accepted name. A
    /// difference in case only (old capitalised epithets such as `Struthio Camelus`) is the same name.
    static func isDistinctSynonym(_ candidate: String, of name: String) -> Bool {
        !candidate.isEmpty && candidate.caseInsensitiveCompare(name) != .orderedSame
    }
}
