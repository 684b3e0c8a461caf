import STOLEngine
import STOLProtocol
/// How a source's rank name maps onto the engine's eight ranks.
///
/// Checklists use dozens of ranks; the engine keeps eight. A rank that is one of them (or a
/// synonym of one, such as botany's `division` for phylum) is kept. A rank below species
/// (subspecies, variety, form, strain, ...) is dropped with everything under it, as AviList's
/// subspecies are. Any other rank (`subfamily`, `tribe`, `superorder`, `clade`, `no rank`, ...)
/// is folded: the node is removed and its children hang from its nearest kept ancestor.
///
/// NCBI's 2025 dumps replaced `superkingdom` with `domain` (Bacteria, Archaea, Eukaryota) and
/// `acellular root` (Viruses), and gave viruses `realm`s under that root. `superkingdom`,
/// `domain` and `acellular root` all map to domain, so Viruses stays a root beside the three
/// cellular domains as in older dumps; `realm` and `cellular root` (cellular organisms) fold.
public enum RankFolding: Sendable, Equatable {
    /// One of the eight ranks.
    case kept(Rank)
    /// Above species but not one of the eight: removed, its children re-attached.
    case folded
    /// Below species: dropped, with its descendants.
    case belowSpecies
    /// No rank given at all.
    case unranked

    /// Classifies a rank name, ignoring case, surrounding space and a trailing dot.
    public init(_ text: String) {
        var name = text.trimmingCharacters(in: .whitespaces).lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        if name.isEmpty {
            self = .unranked
        } else if let rank = Self.keptNames[name] {
            self = .kept(rank)
        } else if Self.belowSpeciesNames.contains(name) || name.hasPrefix("infraspecific") || name.hasPrefix("infrasubspecific") {
            self = .belowSpecies
        } else {
            self = .folded
        }
    }

    static let keptNames: [String: Rank] = [
        "domain": .domain, "superkingdom": .domain, "acellular root": .domain, "empire": .domain,
        "kingdom": .kingdom, "regnum": .kingdom,
        "phylum": .phylum, "division": .phylum, "divisio": .phylum,
        "class": .class, "classis": .class,
        "order": .order, "ordo": .order,
        "family": .family, "familia": .family,
        "genus": .genus,
        "species": .species, "sp": .species, "spec": .species,
    ]

    /// The rank below species a rank name means, for the two the engine keeps (`subspecies`,
    /// `variety`; NCBI writes `varietas`), ignoring case, surrounding space and a trailing dot;
    /// nil for any other name.
    public static func rankBelowSpecies(_ text: String) -> Rank? {
        var name = text.trimmingCharacters(in: .whitespaces).lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        return belowSpeciesKept[name]
    }

    static let belowSpeciesKept: [String: Rank] = [
        "subspecies": .subspecies, "ssp": .subspecies, "subsp": .subspecies,
        "variety": .variety, "varietas": .variety, "var": .variety,
    ]

    static let belowSpeciesNames: Set<String> = [
        "subspecies", "ssp", "subsp", "variety", "varietas", "var", "subvariety", "subvarietas", "subvar",
        "form", "forma", "f", "subform", "subforma", "forma specialis", "special form", "proles", "race",
        "natio", "convariety", "lusus", "mutatio", "morph", "aberration", "abberation", "chemoform",
        "pathovar", "biovar", "chemovar", "morphovar", "phagovar", "serovar", "cultivar", "cultivar group",
        "grex", "strain", "serotype", "serogroup", "biotype", "genotype", "isolate",
        "infraspecies", "other infraspecific",
    ]
}
