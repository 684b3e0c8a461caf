import Foundation
import STOLRPC
import STOLJSON

/// `search/query` and `search/autocomplete`.
enum SearchMethods {
    /// `conservation`: one status, a list of them, or the set `threatened` (VU, EN, CR).
    struct ConservationParam: Codable, Sendable {
        var values: [String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) {
                values = [one]
            } else {
                values = try container.decode([String].self)
            }
        }

        init(_ values: [String]) {
            self.values = values
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            if values.count == 1 { try container.encode(values[0]) } else { try container.encode(values) }
        }
    }

    struct QueryParams: Codable, Sendable {
        var query: String?
        var rank: String?
        var conservation: ConservationParam?
        var within: Int64?
        var habitat: String?
        var lang: String?
        var limit: Int?
        var offset: Int?
        var cursor: String?
    }

    struct QueryResult: JSONWritable, Sendable {
        var results: [SearchResult]
        var nextCursor: String?
        var nextOffset: Int?
        /// True when typo-tolerant matches were added because few names matched as typed.
        var fuzzy: Bool
        /// Taxa matched, exact up to the caps (see `totalCapped`).
        var total: Int
        var totalCapped: Bool

        func writeJSON(into out: inout [UInt8]) {
            JSONObject.write(into: &out) { o in
                o.member("fuzzy", fuzzy)
                o.member("nextCursor", ifPresent: nextCursor)
                o.member("nextOffset", ifPresent: nextOffset)
                o.member("results", results)
                o.member("total", total)
                o.member("totalCapped", totalCapped)
            }
        }
    }

    struct AutocompleteParams: Codable, Sendable {
        var prefix: String
        var limit: Int?
        var lang: String?
        var rank: String?
        var conservation: ConservationParam?
    }

    static let maxOffset = 10_000

    /// The filters of a request, each checked and named on failure.
    static func filters(rank: String?, conservation: ConservationParam?, within: Int64? = nil, habitat: String? = nil) throws -> SearchFilters {
        var filters = SearchFilters()
        filters.rank = try Params.rank(rank)
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

    /// `{"suggestions": [...]}`.
    struct Suggestions: Encodable, Sendable {
        var suggestions: [Autocomplete.Suggestion]
    }

    /// `search/query`: taxa whose names match, ranked by their best-matching name; or, with no
    /// query, the taxa the filters select.
    enum Query: RPCMethod {
        typealias Params = QueryParams
        typealias Result = QueryResult
        static let name = "search/query"
    }

    /// `search/autocomplete`: suggestions for what is being typed.
    enum Suggest: RPCMethod {
        typealias Params = AutocompleteParams
        typealias Result = Suggestions
        static let name = "search/autocomplete"
    }

    static func register(in table: inout MethodTable, engine: Engine) {
        table.on(Query.self) { p, _ in
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
                guard (0...maxOffset).contains(offset) else { throw RPCError.invalidParams(field: "offset", "must be between 0 and \(maxOffset)") }
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
                return QueryResult(results: [], fuzzy: false, total: 0, totalCapped: false)
            }
            let page: SearchService.Page
            let database = await engine.databases.current()
            do {
                page = try await SearchService(database: database).search(query, options: options)
            } catch SearchError.unknownTaxon(let id) {
                throw RPCError.invalidParams(field: "within", "no taxon has id \(id)")
            }
            return QueryResult(
                results: try await SharedName.annotating(page.results, in: database), nextCursor: page.nextOffset.map { SearchCursor.encode($0, binding: binding) }, nextOffset: page.nextOffset,
                fuzzy: page.fuzzy, total: page.total, totalCapped: page.totalCapped)
        }
        table.on(Suggest.self) { p, _ in
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

/// An opaque cursor for search pages: the offset of the next page and a fingerprint of the
/// query, filters and language it belongs to, so a cursor from another search is refused.
enum SearchCursor {
    /// FNV-1a of the canonical query, filters and language: stable across runs (unlike `Hasher`).
    static func binding(query: String?, filters: SearchFilters, lang: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let canonical = [query ?? "\u{1}", filters.fingerprint, lang].joined(separator: "\u{0}")
        for byte in canonical.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    static func encode(_ offset: Int, binding: String) -> String { Data("s:\(offset):\(binding)".utf8).base64EncodedString() }

    static func decode(_ text: String, binding: String) -> Int? {
        guard let data = Data(base64Encoded: text), let string = String(data: data, encoding: .utf8) else { return nil }
        let parts = string.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "s", parts[2] == binding, let offset = Int(parts[1]), (0...SearchMethods.maxOffset).contains(offset)
        else { return nil }
        return offset
    }
}
