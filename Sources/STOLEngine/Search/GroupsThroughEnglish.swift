import GRDB
import STOLProtocol

/// The group a word names in a language whose names of groups are learned words: French and
/// Spanish call the ducks "Anatidés" and "Anátidas", the butterflies "Lépidoptères" and
/// "Lepidópteros", so `pato` or `mariposa` finds only species ("Pato mandarín", "Mariposa
/// monarca"). The database's English names are everyday words for groups too ("Ducks, geese and
/// swans", "Butterflies and moths"), and its species carry names in both: the word is read as the
/// English head most of the organisms it names share ("Mandarin *duck*", "Monarch *butterfly*"),
/// and a group named by that English word alone (`NameMatcher.Match.bare`) that holds at least
/// half of them answers it, as a name of the requested language
/// (`SearchService.Hit.throughMembers`), never as an exact name (`exact-inflected` at best), with
/// `readAs` the English word.
///
/// Only for a one-word query in a language other than English, when no group's name in that
/// language has the word as its head; the organisms read are the first `organisms` strong hits
/// whose head the word is; two statements and at most `groups` names.
enum GroupsThroughEnglish {
    /// Organisms whose English names are read.
    static let organisms = 20
    /// English names of groups judged.
    static let groups = 200

    /// The groups that answer `query` through the English names of the organisms among `hits`, as
    /// hits scored for `lang`.
    static func hits(
        _ db: Database, _ query: SearchQuery, lang: String, hits: some Collection<SearchService.Hit>, filter: (sql: String, arguments: [String: (any DatabaseValueConvertible)?]),
        context: SearchService.Context
    ) throws -> [SearchService.Hit] {
        guard context.ranking, query.tokens.count == 1, Inflection.primary(lang) != "en" else { return [] }
        let strong = hits.filter(GroupRanking.isStrong)
        guard !strong.contains(where: { GroupRanking.isGroup($0) && $0.head }) else { return [] }
        let named = Array(strong.filter { $0.head && $0.matchType == "common" && !GroupRanking.isGroup($0) }.sorted { SearchService.Hit.ordered($0, $1) }.prefix(organisms))
        guard !named.isEmpty else { return [] }

        // The English head words of the organisms' names (whole: "bumblebee", not its part "bee"):
        // the one most of them share, and its stored head part.
        var heads: [String: (part: String, taxa: Set<Int64>)] = [:]
        var withEnglish: Set<Int64> = []
        try db.cachedStatement(sql: """
            SELECT s.taxon_id, s.folded, h.head, s.id FROM search_names s JOIN name_heads h ON h.name_id = s.id
            WHERE s.taxon_id IN (SELECT value FROM json_each(?)) AND s.match_type = 'common' AND (s.lang = 'en' OR s.lang LIKE 'en-%')
            """).forEachStoredRow([TaxonomyStore.jsonArray(named.map(\.taxonID))], rowids: [("search_names", 3)]) { row in
                let taxon = try row.taxonID(0, "search_names.taxon_id")
                let part = try row.text(2, "name_heads.head")
                let word = NameStructure.head(ofFolded: try row.text(1, "search_names.folded"), lang: "en", matchType: "common") ?? part
                heads[word, default: (part, [])].taxa.insert(taxon)
                withEnglish.insert(taxon)
            }
        guard let (word, shared) = heads.max(by: { ($0.value.taxa.count, $1.key) < ($1.value.taxa.count, $0.key) }),
              2 * shared.taxa.count > withEnglish.count, word.count >= 3,
              let english = try? SearchQuery.parse(word) else { return [] }

        // Groups an English name of which is that word alone, holding at least half of them.
        let forms = Array(Set([word, shared.part]).union(Inflection.forms(word)).union(Inflection.forms(shared.part))).sorted()
        let rows = try CandidateName.fetchAll(db.cachedStatement(sql: """
            SELECT \(CandidateName.columns(ranking: true)) FROM name_heads h JOIN search_names s ON s.id = h.name_id JOIN taxa t ON t.id = s.taxon_id
            LEFT JOIN taxon_prominence p ON p.taxon_id = s.taxon_id
            WHERE h.head IN (SELECT value FROM json_each(:heads)) AND (s.lang = 'en' OR s.lang LIKE 'en-%')
              AND (t.rank IS NULL OR t.rank NOT IN ('species', 'subspecies', 'variety'))\(filter.sql) LIMIT \(groups)
            """), arguments: StatementArguments(filter.arguments.merging(["heads": TaxonomyStore.jsonArray(forms)]) { $1 }))
        let matcher = NameMatcher(english)
        var membership = SubtreeMembership(db)
        try membership.load(named.map(\.taxonID))
        var out: [Int64: SearchService.Hit] = [:]
        for row in rows {
            guard let match = matcher.match(row), match.bare, match.tier <= .inflected else { continue }
            let inside = try named.count { try membership.contains(row.taxonID, $0.taxonID) }
            guard 2 * inside >= named.count else { continue }
            var hit = SearchService.Hit(row, match: match)
            // Read through other names, it is no exact name of the word: a name of the language that
            // is the word comes first (`cerdo` is "Cerdo", the pig).
            hit.tier = max(hit.tier, .exactInflected)
            hit.readAs = word
            hit.throughMembers = true
            hit = hit.scored(lang: lang, queryLength: query.folded.unicodeScalars.count)
            if let seen = out[hit.taxonID], !SearchService.Hit.ordered(hit, seen) { continue }
            out[hit.taxonID] = hit
        }
        return Array(out.values)
    }
}
