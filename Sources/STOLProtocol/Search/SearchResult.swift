import STOLJSON

/// One search result: the taxon, the name that matched, and how.
public struct SearchResult: Codable, Hashable, Sendable, Identifiable {
    public var id: TaxonID
    public var scientificName: String
    /// Present when another taxon has the same scientific name (`Morus (genus in Aves)`).
    public var disambiguation: Disambiguation? = nil
    public var preferredCommonName: String?
    /// The language tag of `preferredCommonName` (`en` when it fell back to English).
    public var preferredCommonNameLang: String? = nil
    /// The name that matched: may be a common name or a synonym.
    public var matchedName: String
    /// `scientific`, `common`, `synonym`, or `fuzzy` for a typo-tolerant match.
    public var matchType: String
    /// For a fuzzy match, which kind of name it was close to.
    public var matchedNameType: String?
    /// For a fuzzy match, the number of edits between the query and the name.
    public var editDistance: Int?
    /// The `MatchTier` of the best-matching name (absent in a listing by filters alone).
    public var matchTier: String?
    /// The language of the matched name; absent for scientific names.
    public var matchedLang: String?
    /// The query as the engine read it when the lexicon, a diminutive or a spelling variant found
    /// this taxon (`puppy` read as "dog", `chaton` as "chat", `grey squirrel` as "gray squirrel");
    /// absent for the query as typed.
    public var readAs: String? = nil
    public var rank: Rank?
    public var conservationStatus: ConservationStatus?
    public var status: TaxonStatus
    public var relevanceScore: Double
    /// Present when a group above or a member below goes by the same common name (`SharedName`).
    public var sharedName: SharedName? = nil

    public init(
        id: TaxonID, scientificName: String, disambiguation: Disambiguation? = nil, preferredCommonName: String? = nil,
        preferredCommonNameLang: String? = nil, matchedName: String, matchType: String, matchedNameType: String? = nil,
        editDistance: Int? = nil, matchTier: String? = nil, matchedLang: String? = nil, readAs: String? = nil, rank: Rank? = nil,
        conservationStatus: ConservationStatus? = nil, status: TaxonStatus, relevanceScore: Double, sharedName: SharedName? = nil
    ) {
        self.id = id
        self.scientificName = scientificName
        self.disambiguation = disambiguation
        self.preferredCommonName = preferredCommonName
        self.preferredCommonNameLang = preferredCommonNameLang
        self.matchedName = matchedName
        self.matchType = matchType
        self.matchedNameType = matchedNameType
        self.editDistance = editDistance
        self.matchTier = matchTier
        self.matchedLang = matchedLang
        self.readAs = readAs
        self.rank = rank
        self.conservationStatus = conservationStatus
        self.status = status
        self.relevanceScore = relevanceScore
        self.sharedName = sharedName
    }
}

extension SearchResult: JSONWritable {
    /// The same bytes `JSONEncoder` writes with sorted keys (tested).
    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            o.member("conservationStatus", ifPresent: conservationStatus?.rawValue)
            o.member("disambiguation", ifPresent: disambiguation)
            o.member("editDistance", ifPresent: editDistance)
            o.member("id", id)
            o.member("matchTier", ifPresent: matchTier)
            o.member("matchType", matchType)
            o.member("matchedLang", ifPresent: matchedLang)
            o.member("matchedName", matchedName)
            o.member("matchedNameType", ifPresent: matchedNameType)
            o.member("preferredCommonName", ifPresent: preferredCommonName)
            o.member("preferredCommonNameLang", ifPresent: preferredCommonNameLang)
            o.member("rank", ifPresent: rank?.rawValue)
            o.member("readAs", ifPresent: readAs)
            o.member("relevanceScore", relevanceScore)
            o.member("scientificName", scientificName)
            o.member("sharedName", ifPresent: sharedName)
            o.member("status", status.rawValue)
        }
    }
}
