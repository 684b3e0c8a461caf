import STOLProtocol

/// A taxon as a result line shows it: a `Taxon` or a `SearchResult`.
protocol SummarizedTaxon {
    var id: TaxonID { get }
    var scientificName: String { get }
    var disambiguation: Disambiguation? { get }
    var preferredCommonName: String? { get }
    var rank: Rank? { get }
    var conservationStatus: ConservationStatus? { get }
}

extension Taxon: SummarizedTaxon {}
extension SearchResult: SummarizedTaxon {}

/// Short texts for people, from the engine's typed answers. Every name, and any other text that
/// comes from a database, is written as a quoted string (`ToolText.quoted`); ranks, ids and IUCN
/// codes are the engine's own words and numbers.
enum Summary {
    /// `"Panthera leo" "Lion"`.
    static func name(_ taxon: some SummarizedTaxon) -> String {
        name(taxon.disambiguation?.display ?? taxon.scientificName, common: taxon.preferredCommonName)
    }

    /// A scientific name and, after it, a common name.
    static func name(_ scientific: String, common: String?) -> String {
        guard let common else { return ToolText.quoted(scientific) }
        return "\(ToolText.quoted(scientific)) \(ToolText.quoted(common))"
    }

    /// `Both are in genus "Panthera" "Big cats"`: the shared clade's sentence, from its fields (across
    /// trees, also where the two lines part, as the engine's `sharedCladeDescription` says it).
    static func sharedClade(_ comparison: TaxaComparison) -> String {
        let clade = comparison.sharedClade
        let described = (clade.rank.map { $0.rawValue + " " } ?? "") + name(clade.scientificName, common: clade.preferredCommonName)
        switch clade.relation {
        case .sameTaxon: return "These are the same taxon"
        case .bWithinA: return "\(name(comparison.b)) is in \(described)"
        case .aWithinB: return "\(name(comparison.a)) is in \(described)"
        case .bothWithin:
            // Across trees the clade is the root of life: say where the two lines part.
            let fromA = comparison.pathFromA, fromB = comparison.pathFromB
            if clade.id == Taxon.rootOfLifeID, fromA.count > 1, fromB.count > 1 {
                return "Both are in \(described), the root of the tree of life: their lines part there, into "
                    + "\(name(fromA[fromA.count - 2])) and \(name(fromB[fromB.count - 2]))"
            }
            return "Both are in \(described)"
        }
    }

    /// `"Panthera leo" "Lion" (species, id 5)`.
    static func line(_ taxon: some SummarizedTaxon) -> String {
        var parts: [String] = []
        if let rank = taxon.rank { parts.append(rank.rawValue) }
        parts.append("id \(taxon.id)")
        if let status = taxon.conservationStatus { parts.append("IUCN \(status.rawValue)") }
        return name(taxon) + " (" + parts.joined(separator: ", ") + ")"
    }

    /// A trait with its unit, the value and unit quoted as one: `"height": "4.3–5.7 m"`.
    static func trait(_ trait: Trait) -> String {
        "\(ToolText.quoted(trait.key)): " + ToolText.quoted(trait.value + (trait.unit.map { " \($0)" } ?? ""))
    }

    static func detail(_ detail: TaxonDetail) -> String {
        let taxon = detail.taxon
        var text = line(taxon)
        if let author = taxon.author { text += ", author \(ToolText.quoted(author))" }
        text += "."
        if !detail.lineage.isEmpty { text += " Lineage: " + detail.lineage.map { ToolText.quoted($0.scientificName) }.joined(separator: " › ") + "." }
        if !detail.names.isEmpty {
            text += " Common names in \(detail.names.count) language\(detail.names.count == 1 ? "" : "s")."
        }
        if !detail.traits.isEmpty {
            text += " Traits: " + detail.traits.prefix(8).map(trait).joined(separator: "; ") + "."
        }
        if let description = detail.description {
            // The text with its attribution, which its licence (Wikipedia's CC BY-SA) requires.
            let credit = [description.sourceName, description.sourceTitle, description.sourceUrl, description.license].compactMap { $0 }.map(ToolText.quoted)
            text += " Description" + (credit.isEmpty ? "" : " (" + credit.joined(separator: ", ") + ")") + ": " + ToolText.quoted(description.text)
        }
        return text
    }
}
