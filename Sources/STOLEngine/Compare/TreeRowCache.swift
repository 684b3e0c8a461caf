import STOLProtocol
import STOLSupport

/// Taxa already read for the inner nodes of one database's in-memory tree, and the
/// disambiguations already worked out: the clades most lineages and comparisons pass through
/// (Eukaryota, Pterygota) are read once instead of in every answer. The database is immutable
/// while its tree lives, so a kept row never goes stale.
///
/// Leaves are not kept (a random workload rarely asks for one twice); past `limit` entries a
/// table starts again empty, which keeps it to a few MB.
public final class TreeRowCache: Sendable {
    struct Key: Hashable {
        var node: Int32
        var lang: String
    }

    /// Most entries per table.
    static let limit = 50_000

    private let taxa = Locked<[Key: Taxon]>([:])
    /// nil values are kept too: "this taxon has no namesake" is worth remembering.
    private let disambiguations = Locked<[Int32: Disambiguation?]>([:])

    /// The kept taxa of `nodes` in `lang`, by position in `nodes`.
    func taxa(_ nodes: [Int32], lang: String) -> [Taxon?] {
        taxa.withLock { kept in nodes.map { kept[Key(node: $0, lang: lang)] } }
    }

    /// Keeps `found`, the taxa of inner nodes in `lang`.
    func keep(_ found: [(node: Int32, taxon: Taxon)], lang: String) {
        guard !found.isEmpty else { return }
        taxa.withLock { kept in
            if kept.count + found.count > Self.limit { kept.removeAll(keepingCapacity: true) }
            for (node, taxon) in found { kept[Key(node: node, lang: lang)] = taxon }
        }
    }

    /// The kept disambiguation of each node: absent when not known, `.some(nil)` when it has none.
    func disambiguations(_ nodes: [Int32]) -> [Disambiguation??] {
        disambiguations.withLock { kept in nodes.map { kept[$0] } }
    }

    /// Keeps the disambiguations worked out for `found`.
    func keep(_ found: [(node: Int32, disambiguation: Disambiguation?)]) {
        guard !found.isEmpty else { return }
        disambiguations.withLock { kept in
            if kept.count + found.count > Self.limit { kept.removeAll(keepingCapacity: true) }
            for (node, disambiguation) in found { kept[node] = .some(disambiguation) }
        }
    }
}
