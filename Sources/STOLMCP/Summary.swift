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

/// Short texts for people, from the engine's typed answers.
enum Summary {
    /// `Panthera leo "Lion"`.
    static func name(_ taxon: some SummarizedTaxon) -> String {
        let scientific = taxon.disambiguation?.display ?? taxon.scientificName
        guard let common = taxon.preferredCommonName else { return scientific }
        return "\(scientific) \"\(common)\""
    }

    /// `Panthera leo "Lion" (species, id 5)`.
    static func line(_ taxon: some SummarizedTaxon) -> String {
        var parts: [String] = []
        if let rank = taxon.rank { parts.append(rank.rawValue) }
        parts.append("id \(taxon.id)")
        if let status = taxon.conservationStatus { parts.append("IUCN \(status.rawValue)") }
        return name(taxon) + " (" + parts.joined(separator: ", ") + ")"
    }

    /// A trait as a sentence gives it, with its unit: `height: 4.3–5.7 m`.
    static func trait(_ trait: Trait) -> String {
        "\(trait.key): \(trait.value)" + (trait.unit.map { " \($0)" } ?? "")
    }

    static func detail(_ detail: TaxonDetail) -> String {
        let taxon = detail.taxon
        var text = line(taxon)
        if let author = taxon.author { text += ", \(author)" }
        text += "."
        if !detail.lineage.isEmpty { text += " Lineage: " + detail.lineage.map(\.scientificName).joined(separator: " › ") + "." }
        if !detail.names.isEmpty {
            text += " Common names in \(detail.names.count) language\(detail.names.count == 1 ? "" : "s")."
        }
        if !detail.traits.isEmpty {
            text += " Traits: " + detail.traits.prefix(8).map(trait).joined(separator: "; ") + "."
        }
        if let description = detail.description {
            // The text with its attribution, which its licence (Wikipedia's CC BY-SA) requires.
            let credit = [description.sourceName, description.sourceTitle.map { "\"\($0)\"" }, description.sourceUrl, description.license].compactMap { $0 }
            text += " Description" + (credit.isEmpty ? "" : " (" + credit.joined(separator: ", ") + ")") + ": " + description.text
        }
        return text
    }
}
