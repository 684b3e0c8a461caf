import STOLEngine
import STOLProtocol

/// Looks taxa of an assembled backbone up by scientific name (accepted names and synonyms), by
/// id and by lineage, for what is merged into it after assembly: descriptions and names from other
/// sources.
///
/// It keeps what it needs of the taxa (their scientific names and parents) rather than the taxa, so
/// that adding to them does not copy them.
struct BackboneIndex {
    /// Each taxon's scientific name.
    let scientificNames: [String]
    /// Each taxon's parent, or -1.
    let parentIndex: [Int32]
    /// Taxa by scientific name, exactly as written (homonyms give several).
    private(set) var byName: [String: [Int32]] = [:]
    /// Taxa by each of their synonyms.
    private(set) var bySynonym: [String: [Int32]] = [:]
    /// Taxa by id (`Assembled.ids`: NCBI tax ids for an NCBI backbone).
    private(set) var byID: [Int64: Int32] = [:]
    /// Taxa ranked below species, by the first word of their name (their genus).
    private(set) var belowSpeciesByGenus: [String: [Int32]] = [:]

    init(_ assembled: borrowing TaxonomyAssembler.Assembled) {
        scientificNames = assembled.taxa.map(\.scientificName)
        parentIndex = assembled.parentIndex
        byName.reserveCapacity(assembled.taxa.count)
        byID.reserveCapacity(assembled.taxa.count)
        for (i, taxon) in assembled.taxa.enumerated() {
            byName[Self.normalised(taxon.scientificName), default: []].append(Int32(i))
            byID[assembled.ids[i]] = Int32(i)
            if taxon.rank?.isBelowSpecies == true, let genus = taxon.scientificName.split(separator: " ").first {
                belowSpeciesByGenus[String(genus), default: []].append(Int32(i))
            }
            for name in taxon.names where name.type == .synonym {
                bySynonym[Self.normalised(name.name), default: []].append(Int32(i))
            }
        }
    }

    /// A scientific name with its white space collapsed, as names are compared here.
    static func normalised(_ name: String) -> String {
        name.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "_" }).joined(separator: " ")
    }

    /// The taxa whose accepted scientific name is `name`.
    func taxa(named name: String) -> [Int32] { byName[Self.normalised(name)] ?? [] }

    /// The taxa that have `name` as a synonym.
    func taxa(withSynonym name: String) -> [Int32] { bySynonym[Self.normalised(name)] ?? [] }

    /// The ancestors of taxon `i`, parent first.
    func ancestors(of i: Int32) -> [Int32] {
        var out: [Int32] = []
        var node = parentIndex[Int(i)]
        while node >= 0, out.count < 10_000 {
            out.append(node)
            node = parentIndex[Int(node)]
        }
        return out
    }

    /// The scientific names of taxon `i`'s ancestors, folded (`TextFolding`), kingdom names with
    /// their equivalents (`GroupNames.equivalents`).
    func lineageNames(of i: Int32) -> Set<String> {
        var out: Set<String> = []
        for a in ancestors(of: i) { out.formUnion(GroupNames.equivalents(of: scientificNames[Int(a)])) }
        return out
    }
}

/// Names of groups as different sources write them.
enum GroupNames {
    /// Kingdoms (and NCBI's names for them) that are one group under two names, folded.
    static let kingdoms: [[String]] = [
        ["animalia", "metazoa"], ["plantae", "viridiplantae"], ["fungi", "mycota"], ["bacteria", "eubacteria"],
    ]

    /// `name` folded, with the other names of the same kingdom.
    static func equivalents(of name: String) -> [String] {
        let folded = TextFolding.fold(name)
        return kingdoms.first { $0.contains(folded) } ?? [folded]
    }
}
