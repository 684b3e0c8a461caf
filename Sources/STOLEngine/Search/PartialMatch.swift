import GRDB
import STOLProtocol

/// The best partial matches of a query of several words when no taxon holds them all (`common
/// raccoon` for "Raccoon", `largemouthed black bass` for "Largemouth bass"), as `partial` hits.
///
/// The query's head word (`NameStructure.headIndex` in the requested language: the last word in
/// English) matters most. Candidates are the taxa holding it (and, for a query of three words or
/// more, those holding two of the others; when none holds it, those holding one of the others),
/// in any of its forms and readings (`Lexicon.alternatives`); each of their names in the
/// requested language, scientific names included (other languages when those give nothing), is
/// judged: every query word is matched to a distinct word of the name, whole (1), in another
/// number (in the name's language) or read by the lexicon (0.95), as a stem (one word starting
/// the other, at most three letters apart: 0.85) or within one edit from five letters (0.7). The
/// hit's quality (`SearchScore`): 0.5 · the head word matched the name's head + 0.3 · the matched
/// share of the query's words (a `[typical]` word of the lexicon, `common`, weighing half) + 0.03
/// · (1 − the name's unmatched words, up to 4, / 4) + 0.05 · the taxon is a species (a head with
/// modifiers names a kind) + 0.05 · prominence (less than one word of a query of five: a word
/// found outweighs how well known a taxon is).
enum PartialMatch {
    /// Taxa read per candidate expression.
    static let cap = 500

    static func hits(
        _ db: Database, _ query: SearchQuery, lang: String, lexicon: Lexicon,
        filter: (sql: String, arguments: [String: (any DatabaseValueConvertible)?]), context: SearchService.Context
    ) throws -> [SearchService.Hit] {
        let tokens = query.tokens.filter { $0.count >= 2 }
        guard tokens.count >= 2 else { return [] }
        let primary = Inflection.primary(lang) ?? lang
        let headIndex = NameStructure.headIndex(tokens, lang: primary, lexicon: lexicon)
        // Per query word, its readings (one word each); the index is also asked for its forms.
        let alternatives = tokens.map { token in Set(lexicon.alternatives(of: token, lang: primary).filter { !$0.contains(" ") }) }
        // A typical word (`common`, `true`) says little of which organism is meant: it weighs half.
        let weights = tokens.map { lexicon.typical.contains($0) ? 0.5 : 1 }
        func any(_ i: Int) -> String {
            "(" + (Set([tokens[i]]).union(alternatives[i]).union(Inflection.forms(tokens[i]))).sorted().map(WordVocabulary.quoted).joined(separator: " OR ") + ")"
        }
        func taxaMatching(_ expression: String) throws -> [Int64] {
            try Int64.fetchAll(db.cachedStatement(sql: "SELECT rowid FROM fts_taxa WHERE fts_taxa MATCH ? LIMIT \(cap)"), arguments: [expression])
        }
        var taxa = Set(try taxaMatching(any(headIndex)))
        if taxa.isEmpty {
            // No name holds the head word: the taxa holding one of the others.
            for i in tokens.indices where i != headIndex && tokens[i].count >= 3 { taxa.formUnion(try taxaMatching(any(i))) }
        } else if tokens.count >= 3 {
            let others = tokens.indices.filter { $0 != headIndex }
            for (n, i) in others.enumerated() {
                for j in others[(n + 1)...] {
                    taxa.formUnion(try taxaMatching(any(i) + " AND " + any(j)))
                }
            }
        }
        guard !taxa.isEmpty else { return [] }
        var args = StatementArguments(filter.arguments)
        args += ["taxa": TaxonomyStore.jsonArray(Array(taxa))]
        let sql = "SELECT \(CandidateName.columns(ranking: context.ranking)) FROM \(CandidateName.from(ranking: context.ranking)) WHERE s.taxon_id IN (SELECT value FROM json_each(:taxa))\(filter.sql)"
        let names = try CandidateName.fetchAll(db.cachedStatement(sql: sql), arguments: args)
        func judge(_ admitted: (CandidateName) -> Bool) -> [SearchService.Hit] {
            var best: [Int64: SearchService.Hit] = [:]
            for name in names where admitted(name) {
                guard let quality = quality(of: name, tokens: tokens, weights: weights, alternatives: alternatives, headIndex: headIndex) else { continue }
                var hit = SearchService.Hit(name, match: NameMatcher.Match(tier: .partial))
                hit.partialQuality = quality + 0.05 * Double(min(max(name.prominence, 0), 1_000)) / 1_000
                hit = hit.scored(lang: lang, queryLength: query.folded.unicodeScalars.count)
                if let existing = best[hit.taxonID], !SearchService.Hit.ordered(hit, existing) { continue }
                best[hit.taxonID] = hit
            }
            return Array(best.values)
        }
        let own = judge { $0.matchType != "common" || SearchService.languageOrder($0.lang, lang) == 0 }
        return own.isEmpty ? judge { _ in true } : own
    }

    /// A name's partial quality without prominence (see the type's documentation), or nil when it
    /// holds neither the head word nor two query words.
    static func quality(of name: CandidateName, tokens: [String], weights: [Double], alternatives: [Set<String>], headIndex: Int) -> Double? {
        let parts = name.wordParts
        var unused = Array(parts.indices)
        let head = name.headWord
        var matched = 0.0, count = 0, headMatched = false
        // The head word first, so that it takes the name's word it matches best.
        for i in [headIndex] + tokens.indices.filter({ $0 != headIndex }) {
            var best: (weight: Double, index: Int)?
            for index in unused {
                let word = parts[index].joined()
                let candidates = [word] + (parts[index].count > 1 ? parts[index] : [])
                for candidate in candidates {
                    let weight = Self.weight(tokens[i], candidate, alternatives: alternatives[i], lang: name.lang)
                    if weight > (best?.weight ?? 0) { best = (weight, index) }
                }
            }
            guard let best else { continue }
            unused.removeAll { $0 == best.index }
            matched += best.weight * weights[i]
            count += 1
            if i == headIndex {
                headMatched = NameStructure.isHead(parts[best.index], head: head, tokens: tokens)
            }
        }
        guard count >= 1 else { return nil }
        let extra = Double(min(unused.count, 4)) / 4
        // A query of a head and its modifiers names a kind: a species.
        let species = name.rank == .species ? 1.0 : 0
        return 0.5 * (headMatched ? 1 : 0) + 0.3 * matched / weights.reduce(0, +) + 0.03 * (1 - extra) + 0.05 * species
    }

    /// How well `word` of a name answers query word `token` (see the type's documentation); 0 for not.
    static func weight(_ token: String, _ word: String, alternatives: Set<String>, lang: String?) -> Double {
        if word == token { return 1 }
        if alternatives.contains(word) || Inflection.areInflections(token, word, lang: lang) { return 0.95 }
        let (short, long) = token.count <= word.count ? (token, word) : (word, token)
        if short.count >= 4, long.hasPrefix(short), long.count - short.count <= 3 { return 0.85 }
        if token.count >= 5, word.count >= 4, EditDistance.distance(Array(token.unicodeScalars), Array(word.unicodeScalars), limit: 1) != nil { return 0.7 }
        return 0
    }
}
