import STOLJSON

/// `search/query`: taxa whose names match, ranked by their best-matching name; or, with no
/// query, the taxa the filters select.
public struct SearchQueryRequest: RPCRequest, Hashable {
    public typealias Response = SearchResults
    public static let method = "search/query"

    /// What was typed: scientific, common or synonym names, typos allowed. Required unless a
    /// filter (rank, conservation, within, habitat) is given.
    public var query: String?
    public var rank: Rank?
    public var conservation: ConservationFilter?
    /// Only taxa under (or equal to) this taxon.
    public var within: TaxonID?
    /// Only taxa whose habitat trait holds these words.
    public var habitat: String?
    public var lang: String?
    /// 1…1000; 50 when absent.
    public var limit: Int?
    /// 0…10,000: where the page starts; or give `cursor`.
    public var offset: Int?
    /// `nextCursor` of the previous page of the same search.
    public var cursor: String?

    public init(
        query: String? = nil, rank: Rank? = nil, conservation: ConservationFilter? = nil, within: TaxonID? = nil, habitat: String? = nil,
        lang: String? = nil, limit: Int? = nil, offset: Int? = nil, cursor: String? = nil
    ) {
        self.query = query
        self.rank = rank
        self.conservation = conservation
        self.within = within
        self.habitat = habitat
        self.lang = lang
        self.limit = limit
        self.offset = offset
        self.cursor = cursor
    }
}

/// `search/autocomplete`: suggestions for what is being typed.
public struct SearchAutocompleteRequest: RPCRequest, Hashable {
    public typealias Response = Suggestions
    public static let method = "search/autocomplete"

    public var prefix: String
    /// 1…20; 10 when absent.
    public var limit: Int?
    public var lang: String?
    public var rank: Rank?
    public var conservation: ConservationFilter?

    public init(prefix: String, limit: Int? = nil, lang: String? = nil, rank: Rank? = nil, conservation: ConservationFilter? = nil) {
        self.prefix = prefix
        self.limit = limit
        self.lang = lang
        self.rank = rank
        self.conservation = conservation
    }
}

/// `conservation`: one status, a list of them, or the set `threatened` (VU, EN, CR), as written
/// (the engine checks the names).
public struct ConservationFilter: Codable, Hashable, Sendable {
    public var values: [String]

    public init(_ values: [String]) {
        self.values = values
    }

    /// Taxa with any of `statuses`.
    public init(_ statuses: [ConservationStatus]) {
        values = statuses.map(\.rawValue)
    }

    /// VU, EN and CR.
    public static let threatened = ConservationFilter(["threatened"])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let one = try? container.decode(String.self) {
            values = [one]
        } else {
            values = try container.decode([String].self)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if values.count == 1 { try container.encode(values[0]) } else { try container.encode(values) }
    }
}

/// `search/query`'s answer: one page of results.
public struct SearchResults: Codable, Hashable, Sendable, JSONWritable {
    public var results: [SearchResult]
    /// Pass back as `cursor` for the next page; absent on the last.
    public var nextCursor: String?
    public var nextOffset: Int?
    /// True when typo-tolerant matches were added because few names matched as typed.
    public var fuzzy: Bool
    /// Taxa matched, exact up to the caps (see `totalCapped`).
    public var total: Int
    public var totalCapped: Bool
    /// True when names in other languages than `lang` were searched, because its own names
    /// and the scientific names held no query word whole.
    public var otherLanguages: Bool
    /// True when no taxon holds every query word and the results are partial matches.
    public var partial: Bool

    public init(results: [SearchResult], nextCursor: String? = nil, nextOffset: Int? = nil, fuzzy: Bool, total: Int, totalCapped: Bool,
                otherLanguages: Bool = false, partial: Bool = false) {
        self.results = results
        self.nextCursor = nextCursor
        self.nextOffset = nextOffset
        self.fuzzy = fuzzy
        self.total = total
        self.totalCapped = totalCapped
        self.otherLanguages = otherLanguages
        self.partial = partial
    }

    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            o.member("fuzzy", fuzzy)
            o.member("nextCursor", ifPresent: nextCursor)
            o.member("nextOffset", ifPresent: nextOffset)
            o.member("otherLanguages", otherLanguages)
            o.member("partial", partial)
            o.member("results", results)
            o.member("total", total)
            o.member("totalCapped", totalCapped)
        }
    }
}

/// `search/autocomplete`'s answer.
public struct Suggestions: Codable, Hashable, Sendable {
    public var suggestions: [Suggestion]

    public init(suggestions: [Suggestion]) {
        self.suggestions = suggestions
    }
}

/// A completion and the taxon it names.
public struct Suggestion: Codable, Hashable, Sendable {
    public var text: String
    public var taxonId: TaxonID
    /// `scientific`, `common` or `synonym`.
    public var matchType: String
    /// The language of `text`; absent for scientific names.
    public var lang: String?
    public var scientificName: String
    public var rank: Rank?
    public var conservationStatus: ConservationStatus?

    public init(
        text: String, taxonId: TaxonID, matchType: String, lang: String? = nil, scientificName: String, rank: Rank? = nil,
        conservationStatus: ConservationStatus? = nil
    ) {
        self.text = text
        self.taxonId = taxonId
        self.matchType = matchType
        self.lang = lang
        self.scientificName = scientificName
        self.rank = rank
        self.conservationStatus = conservationStatus
    }
}
