import STOLProtocol

/// Compares species by taxonomic distance and optional trait similarity (the specification's §10.4).
///
/// Differences from the specification: the comparison is the protocol's `TaxaComparison` (`a`
/// and `b` where the specification says `taxonA` and `taxonB`, plus the shared clade as fields
/// and the per-key trait deltas); relatives are `Relative`s (`rankOrder`, `taxon`, `lca`,
/// `lcaDepth`, `distance`; the id is `taxon.id`). Taxa in different trees meet at Biota, the
/// root of all life (`Taxon.isRootOfLife`).
public protocol CompareService: AnyObject, Sendable {
    /// Compute the comparison result between two taxa.
    func compare(taxonA: TaxonID, taxonB: TaxonID) async throws -> TaxaComparison

    /// Return the top-N closest relatives of a species (1…100).
    func topNRelatives(of taxonID: TaxonID, n: Int, source: TopNSource) async throws -> [Relative]
}

/// Where the closest relatives come from.
public enum TopNSource: Sendable, Hashable {
    /// Fast, from the table built with the database (falls back to computing when it has none).
    case precomputed
    /// A walk of the tree, visiting at most `maxCandidates` nodes; slower.
    case computed(maxCandidates: Int)
}

/// `CompareService` over the engine's `compare/taxa` and `compare/relatives`.
public final class EngineCompareService: CompareService {
    public let client: STOLClient
    public let lang: String

    public init(client: STOLClient, lang: String = "en") {
        self.client = client
        self.lang = lang
    }

    public func compare(taxonA: TaxonID, taxonB: TaxonID) async throws -> TaxaComparison {
        try await client.send(CompareTaxaRequest(a: taxonA, b: taxonB, lang: lang))
    }

    public func topNRelatives(of taxonID: TaxonID, n: Int, source: TopNSource) async throws -> [Relative] {
        let request: CompareRelativesRequest
        switch source {
        case .precomputed: request = CompareRelativesRequest(id: taxonID, n: n, source: .precomputed, lang: lang)
        case .computed(let maxCandidates): request = CompareRelativesRequest(id: taxonID, n: n, source: .computed, maxCandidates: maxCandidates, lang: lang)
        }
        return try await client.send(request).relatives
    }
}
