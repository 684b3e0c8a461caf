import STOLProtocol

/// Full-text and filtered search over the taxonomy database (the specification's §10.3).
///
/// Differences from the specification: results are the protocol's `SearchResult` (its
/// `matchType` also says `fuzzy`, its `rank` is optional, with the common name and the match
/// tier); `maxResults` may be 1…1000 for a search and 1…20 for suggestions.
public protocol SearchService: AnyObject, Sendable {
    /// Search for taxa matching the query string: scientific names, common names, synonyms.
    func search(query: String, rank: Rank?, maxResults: Int) async throws -> [SearchResult]

    /// Autocomplete suggestions for a partial query.
    func autocomplete(prefix: String, maxResults: Int) async throws -> [String]
}

/// `SearchService` over the engine's `search/query` and `search/autocomplete`.
public final class EngineSearchService: SearchService {
    public let client: STOLClient
    /// The language of the common names searched first and answered.
    public let lang: String

    public init(client: STOLClient, lang: String = "en") {
        self.client = client
        self.lang = lang
    }

    public func search(query: String, rank: Rank? = nil, maxResults: Int = 50) async throws -> [SearchResult] {
        try await client.send(SearchQueryRequest(query: query, rank: rank, lang: lang, limit: maxResults)).results
    }

    public func autocomplete(prefix: String, maxResults: Int = 10) async throws -> [String] {
        try await client.send(SearchAutocompleteRequest(prefix: prefix, limit: maxResults, lang: lang)).suggestions.map(\.text)
    }
}
