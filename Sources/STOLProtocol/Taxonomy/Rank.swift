import Foundation

/// The eight Linnaean ranks the engine knows, from the top of the tree down.
public enum Rank: String, Hashable, Sendable, CaseIterable, Comparable, EnumeratedParam {
    case domain, kingdom, phylum, `class`, order, family, genus, species

    /// 0 for domain … 7 for species.
    public var level: Int { Self.allCases.firstIndex(of: self)! }

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
