import Foundation

/// The ranks the engine knows, from the top of the tree down: the specification's eight Linnaean
/// ranks, then two below species (an engine extension, protocol/README.md "Ranks below species").
///
/// `subspecies` and `variety` are only given to taxa below a species that people have a name for
/// (NCBI's dog, *Canis lupus familiaris*); they hang under their species (or a named subspecies).
public enum Rank: String, Hashable, Sendable, CaseIterable, Comparable, EnumeratedParam {
    case domain, kingdom, phylum, `class`, order, family, genus, species
    /// Below species (zoology's and botany's subspecies). An engine extension.
    case subspecies
    /// Below species or subspecies (botany's varietas). An engine extension.
    case variety

    /// 0 for domain … 7 for species, 8 for subspecies, 9 for variety.
    public var level: Int { Self.allCases.firstIndex(of: self)! }

    /// Whether the rank lies below species (`subspecies`, `variety`).
    public var isBelowSpecies: Bool { self > .species }

    /// Species and the ranks below: the taxa `compare/relatives` answers for.
    public var isSpeciesOrBelow: Bool { self >= .species }

    public static func < (lhs: Rank, rhs: Rank) -> Bool { lhs.level < rhs.level }
}

/// Whether a name is currently accepted.
public enum TaxonStatus: String, Codable, Hashable, Sendable, CaseIterable {
    case accepted, synonym, doubtful
}

/// IUCN Red List categories.
public enum ConservationStatus: String, Hashable, Sendable, CaseIterable, EnumeratedParam {
    case EX, EW, CR, EN, VU, NT, LC, DD, NE

    /// Reads the category at the start of texts such as `LC`, `CR (PE)` or `LC (as X y)`.
    public init?(lenient text: String) {
        let code = text.trimmingCharacters(in: .whitespaces).prefix(2).uppercased()
        guard let status = ConservationStatus(rawValue: code) else { return nil }
        let rest = text.trimmingCharacters(in: .whitespaces).dropFirst(2)
        guard rest.isEmpty || rest.first == " " || rest.first == "(" else { return nil }
        self = status
    }
}

/// The kind of a name attached to a taxon.
public enum NameType: String, Codable, Hashable, Sendable, CaseIterable {
    case common, synonym, vernacular, trade
}
