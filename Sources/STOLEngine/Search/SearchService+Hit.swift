import STOLProtocol

extension SearchService {
    /// One taxon's best match so far, with what its score is made of.
    struct Hit: Sendable {
        var taxonID: Int64
        var tier: MatchTier
        /// The matched name and its type; nil for all-names hits until resolved.
        var name: String?
        var matchType: String?
        var lang: String?
        var scientificName: String
        var rank: Rank?
        var status: TaxonStatus
        var editDistance: Int?
        var nameLength = 0
        /// The folded query's length, for coverage (`SearchScore`).
        var queryLength = 0
        /// A query word is the name's head (`NameMatcher.Match.head`).
        var head = false
        /// The name is its head alone (`NameMatcher.Match.bare`).
        var bare = false
        /// The name is a typical word and the query word (`NameMatcher.Match.typical`).
        var typical = false
        /// A group found through the English names of the organisms the query's word names,
        /// ranked as a name of the requested language (`GroupsThroughEnglish`).
        var throughMembers = false
        /// A group that stands for the kind the query's word names (`GroupRanking.kindValue`).
        var kind = false
        /// A one-word scientific name matched by a query without capitals (`NameMatcher.Match.uncapitalizedGenus`).
        var uncapitalizedGenus = false
        var accentMismatch = false
        /// The taxon's prominence in thousandths (`Prominence`).
        var prominence = 0
        /// The query as the lexicon or a spelling read it, for hits found so (`QueryRewrites`).
        var readAs: String?
        /// For a partial hit, its quality (`PartialMatch`).
        var partialQuality: Double?
        /// `SearchScore`'s score, set by `scored(lang:queryLength:)`.
        var score = 0.0
        /// Set once the hits are ordered (`SearchService.scored`): `score`, made to fall strictly.
        var relevance = 0.0

        /// A virus, hybrid or sample (`Prominence.demoted`).
        var demoted: Bool { prominence <= Prominence.demoted }
        /// Ranked below organisms' matches: demoted, or lacking the query's accents.
        var weak: Bool { demoted || accentMismatch }

        /// The hit of one name judged by `NameMatcher`.
        init(_ row: CandidateName, match: NameMatcher.Match) {
            self.init(
                taxonID: row.taxonID, tier: match.tier, name: row.name, matchType: row.matchType, lang: row.lang,
                scientificName: row.scientificName, rank: row.rank,
                status: row.status, nameLength: row.folded.unicodeScalars.count,
                head: match.head, accentMismatch: match.accentMismatch, prominence: row.prominence)
            bare = match.bare
            typical = match.typical
            // An organism named by a typical word and the query word is the one the word means
            // first ("Common carp" for `carp`): better known for this search.
            if typical, rank?.isSpeciesOrBelow ?? false, prominence >= 0 {
                prominence = min(prominence + SearchScore.typicalProminence, 1_000)
            }
            uncapitalizedGenus = match.uncapitalizedGenus
        }

        init(
            taxonID: Int64, tier: MatchTier, name: String?, matchType: String?, lang: String?, scientificName: String, rank: Rank?,
            status: TaxonStatus, nameLength: Int, head: Bool, accentMismatch: Bool, prominence: Int
        ) {
            (self.taxonID, self.tier, self.name, self.matchType, self.lang, self.scientificName, self.rank, self.status) =
                (taxonID, tier, name, matchType, lang, scientificName, rank, status)
            (self.nameLength, self.head, self.accentMismatch, self.prominence) = (nameLength, head, accentMismatch, prominence)
        }

        /// The hit with its score (`SearchScore`) for a search in `lang`, for a query of
        /// `queryLength` folded characters.
        func scored(lang: String, queryLength: Int) -> Hit {
            var out = self
            out.queryLength = queryLength
            let group = SearchScore.group(tier: tier, weak: weak, editDistance: editDistance, demoted: demoted, uncapitalizedGenus: uncapitalizedGenus)
            let coverage = SearchScore.weighsCoverage(group) ? Double(queryLength) / Double(max(nameLength, queryLength, 1)) : 0
            // A group found by a name with words besides its head is a part of the group meant
            // ("leafcutter bees" for `bee`): half its prominence.
            let subgroup = group == 3 && !(rank?.isSpeciesOrBelow ?? false) && !bare && !kind && name != nil
            let known = subgroup ? prominence / 2 : prominence
            let base = SearchScore.quality(
                head: head, language: name == nil || throughMembers ? 1 : SearchScore.language(nameLang: self.lang, matchType: matchType, lang: lang),
                asTyped: readAs == nil || throughMembers, prominence: known, coverage: coverage)
            let quality: Double
            if let partialQuality {
                quality = partialQuality
            } else if group == 7 {
                quality = SearchScore.weak(tier: tier, base: base)
            } else {
                quality = base
            }
            out.score = SearchScore.score(group: group, quality: quality)
            return out
        }

        /// Order: score, then shorter names, scientific name and id, so equal scores always come
        /// in the same order.
        static func ordered(_ a: Hit, _ b: Hit) -> Bool {
            if a.score != b.score { return a.score > b.score }
            if a.nameLength != b.nameLength { return a.nameLength < b.nameLength }
            if a.scientificName != b.scientificName { return a.scientificName < b.scientificName }
            return a.taxonID < b.taxonID
        }
    }
}
