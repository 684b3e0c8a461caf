import STOLProtocol

/// High-level access to taxonomy tree data (the specification's §10.2).
///
/// Differences from the specification: taxa are the protocol's `Taxon` (optional `rank`, ten
/// ranks, `parentId`, the names in the asked language); references are `Reference`
/// (`citation`, `url`, `type`); every method takes the language of the names it returns.
public protocol TaxonomyStore: AnyObject, Sendable {
    /// Fetch a taxon by its stable ID; nil when the database has none.
    func taxon(id: TaxonID) async throws -> Taxon?

    /// Fetch direct children of a taxon (every page of them).
    func children(of parentID: TaxonID) async throws -> [Taxon]

    /// Fetch ancestors of a taxon from root to (but not including) the taxon itself.
    func ancestors(of taxonID: TaxonID) async throws -> [Taxon]

    /// Fetch all names (common, synonym) for a taxon; every language when `lang` is nil.
    func names(for taxonID: TaxonID, lang: String?) async throws -> [TaxonName]

    /// Fetch traits for a taxon.
    func traits(for taxonID: TaxonID) async throws -> [Trait]

    /// Fetch references for a taxon.
    func references(for taxonID: TaxonID) async throws -> [Reference]
}

/// `TaxonomyStore` over the engine: `taxon/get`, `taxon/children` (paged through),
/// `taxon/ancestors`, `taxon/names`, `taxon/traits`, `taxon/references`.
public final class EngineTaxonomyStore: TaxonomyStore {
    public let client: STOLClient
    /// The language of the common names in the taxa answered.
    public let lang: String

    public init(client: STOLClient, lang: String = "en") {
        self.client = client
        self.lang = lang
    }

    public func taxon(id: TaxonID) async throws -> Taxon? {
        do {
            return try await client.send(TaxonGetRequest(id: id, lang: lang))
        } catch let error as RPCError where error.kind == .taxonNotFound {
            return nil
        }
    }

    public func children(of parentID: TaxonID) async throws -> [Taxon] {
        var all: [Taxon] = []
        var cursor: String?
        repeat {
            let page = try await client.send(TaxonChildrenRequest(id: parentID, limit: 1000, cursor: cursor, lang: lang))
            all += page.children
            cursor = page.nextCursor
        } while cursor != nil
        return all
    }

    public func ancestors(of taxonID: TaxonID) async throws -> [Taxon] {
        try await client.send(TaxonAncestorsRequest(id: taxonID, lang: lang)).ancestors
    }

    public func names(for taxonID: TaxonID, lang: String?) async throws -> [TaxonName] {
        try await client.send(TaxonNamesRequest(id: taxonID, lang: lang)).names
    }

    public func traits(for taxonID: TaxonID) async throws -> [Trait] {
        try await client.send(TaxonTraitsRequest(id: taxonID, lang: lang)).traits
    }

    public func references(for taxonID: TaxonID) async throws -> [Reference] {
        try await client.send(TaxonReferencesRequest(id: taxonID)).references
    }
}
