import Foundation
import STOLRPC

/// `search/query` and `search/autocomplete`.
enum SearchMethods {
    struct QueryParams: Decodable, Sendable {
        var query: String
        var rank: String?
        var conservation: String?
        var lang: String?
        var limit: Int?
        var offset: Int?
        var cursor: String?
    }

    struct QueryResult: Encodable, Sendable {
        var results: [SearchResult]
        var nextCursor: String?
        var nextOffset: Int?
        /// True when typo-tolerant matches were added because few names matched as typed.
        var fuzzy: Bool
    }

    struct AutocompleteParams: Decodable, Sendable {
        var prefix: String
        var limit: Int?
        var lang: String?
    }

    static let maxOffset = 10_000

    static func register(in table: inout MethodTable, engine: Engine) {
        table.on("search/query") { (p: QueryParams, _) in
            var options = SearchService.Options()
            options.rank = try Params.rank(p.rank)
            options.conservation = try Params.conservation(p.conservation)
            options.lang = try Params.language(p.lang)
            options.limit = try Params.limit(p.limit, default: 50, max: 1000)
            if p.offset != nil, p.cursor != nil { throw RPCError.invalidParams(field: "cursor", "give either cursor or offset, not both") }
            if let offset = p.offset {
                guard (0...maxOffset).contains(offset) else { throw RPCError.invalidParams(field: "offset", "must be between 0 and \(maxOffset)") }
                options.offset = offset
            }
            if let cursor = p.cursor {
                guard let offset = SearchCursor.decode(cursor) else { throw RPCError.invalidParams(field: "cursor", "is not a cursor returned by search/query") }
                options.offset = offset
            }
            guard let query = try SearchQuery.parse(p.query) else { return QueryResult(results: [], fuzzy: false) }
            let page = try await SearchService(database: await engine.databases.current()).search(query, options: options)
            return QueryResult(results: page.results, nextCursor: page.nextOffset.map(SearchCursor.encode), nextOffset: page.nextOffset, fuzzy: page.fuzzy)
        }
        table.on("search/autocomplete") { (p: AutocompleteParams, _) in
            let limit = try Params.limit(p.limit, default: 10, max: 20)
            guard p.prefix.count <= SearchQuery.maxLength else {
                throw RPCError.invalidParams(field: "prefix", "is longer than \(SearchQuery.maxLength) characters")
            }
            let suggestions = try await Autocomplete(database: await engine.databases.current())
                .suggestions(prefix: p.prefix, limit: limit, lang: try Params.language(p.lang))
            return ["suggestions": suggestions]
        }
    }
}

/// An opaque cursor for search pages (the offset of the next page).
enum SearchCursor {
    static func encode(_ offset: Int) -> String { Data("s:\(offset)".utf8).base64EncodedString() }

    static func decode(_ text: String) -> Int? {
        guard let data = Data(base64Encoded: text), let string = String(data: data, encoding: .utf8), string.hasPrefix("s:"),
            let offset = Int(string.dropFirst(2)), (0...SearchMethods.maxOffset).contains(offset)
        else { return nil }
        return offset
    }
}
