import Foundation
import STOLProtocol
import STOLRPC

/// `search/query` and `search/autocomplete`.
enum SearchMethods {
    static let maxOffset = 10_000

    /// The filters of a request, each checked and named on failure.
    static func filters(rank: Rank?, conservation: ConservationFilter?, within: Int64? = nil, habitat: String? = nil) throws -> SearchFilters {
        var filters = SearchFilters()
        filters.rank = rank
        if let conservation {
            guard !conservation.values.isEmpty else { throw RPCError.invalidParams(field: "conservation", "must name at least one status") }
            var set: Set<ConservationStatus> = []
            for value in conservation.values {
                if value == "threatened" {
                    set.formUnion(SearchFilters.threatened)
                } else {
                    guard let status = ConservationStatus(rawValue: value) else {
                        throw RPCError.invalidParams(
                            field: "conservation", "must be threatened or one of \(ConservationStatus.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    set.insert(status)
                }
            }
            filters.conservation = set
        }
        if let within { filters.within = try Params.taxonID(within, field: "within") }
        if let habitat {
            guard habitat.count <= SearchQuery.maxLength else { throw RPCError.invalidParams(field: "habitat", "is longer than \(SearchQuery.maxLength) characters") }
            filters.habitat = SearchQuery.tokenize(habitat)
            guard !filters.habitat.isEmpty else { throw RPCError.invalidParams(field: "habitat", "must hold a word") }
        }
        return filters
    }

    static func register(in table: inout MethodTable, engine: Engine) {
        table.on(SearchQueryRequest.self) { p, _ in
            var options = SearchService.Options()
            options.filters = try filters(rank: p.rank, conservation: p.conservation, within: p.within, habitat: p.habitat)
            options.lang = try Params.language(p.lang)
            options.limit = try Params.limit(p.limit, default: 50, max: 1000)
            let text = p.query ?? ""
            let query = try SearchQuery.parse(text)
            if p.query == nil, options.filters.isEmpty {
                throw RPCError.invalidParams(field: "query", "is required unless a filter (rank, conservation, within, habitat) is given")
            }
            let binding = SearchCursor.binding(query: p.query, filters: options.filters, lang: options.lang)
            if p.offset != nil, p.cursor != nil { throw RPCError.invalidParams(field: "cursor", "give either cursor or offset, not both") }
            if let offset = p.offset {
                guard (0...maxOffset).contains(offset) else { throw RPCError.invalidParams(field: "offset", IntegerBounds.outOfRange(0...Int64(maxOffset))) }
                options.offset = offset
            }
            if let cursor = p.cursor {
                guard let offset = SearchCursor.decode(cursor, binding: binding) else {
                    throw RPCError.invalidParams(field: "cursor", "is not a cursor returned by search/query for this query and these filters")
                }
                options.offset = offset
            }
            // A blank query with no filter finds nothing; with filters, it lists.
            if query == nil, p.query != nil, options.filters.isEmpty {
                return SearchResults(results: [], fuzzy: false, total: 0, totalCapped: false)
            }
            let page: SearchService.Page
            let database = await engine.databases.current()
            do {
                page = try await SearchService(database: database).search(query, options: options)
            } catch SearchError.unknownTaxon(let id) {
                throw RPCError.invalidParams(field: "within", "no taxon has id \(id)")
            }
            return SearchResults(
                results: try await SharedName.annotating(page.results, in: database), nextCursor: page.nextOffset.map { SearchCursor.encode($0, binding: binding) }, nextOffset: page.nextOffset,
                fuzzy: page.fuzzy, total: page.total, totalCapped: page.totalCapped, otherLanguages: page.otherLanguages, partial: page.partial)
        }
        table.on(SearchAutocompleteRequest.self) { p, _ in
            let limit = try Params.limit(p.limit, default: 10, max: 20)
            guard p.prefix.count <= SearchQuery.maxLength else {
                throw RPCError.invalidParams(field: "prefix", "is longer than \(SearchQuery.maxLength) characters")
            }
            let filters = try filters(rank: p.rank, conservation: p.conservation)
            let suggestions = try await Autocomplete(database: await engine.databases.current())
                .suggestions(prefix: p.prefix, limit: limit, lang: try Params.language(p.lang), filters: filters)
            return Suggestions(suggestions: suggestions)
        }
    }
}
