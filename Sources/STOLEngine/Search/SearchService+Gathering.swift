import GRDB

extension SearchService {
    /// The hits of one query (as typed or as a rewrite reads it) in one language scope, gathered
    /// tier by tier: each tier's candidates come from an index and are judged by `NameMatcher`;
    /// tiers stop once the page is full of hits no later tier can outrank.
    struct Gathering {
        /// Which names may answer.
        enum Scope {
            /// Names in the requested language, scientific names and synonyms.
            case requested
            /// Every name; one in another language only if it holds accented query words as typed.
            case all
        }

        let db: Database
        let query: SearchQuery
        let lang: String
        let scope: Scope
        let filter: (sql: String, arguments: [String: (any DatabaseValueConvertible)?])
        let context: Context
        let needed: Int
        let matcher: NameMatcher
        /// What this search has read already, shared by its gatherings.
        let memo: SearchMemo
        private(set) var best: [Int64: Hit] = [:]
        /// Taxa all of whose names have been judged: judging them again gives the same hits.
        private var judged: Set<Int64> = []
        private(set) var capped = false
        /// Whether a common name in another language than the requested one was read: only then
        /// can gathering in another `Scope` find anything else.
        private(set) var metOtherLanguages = false

        init(
            db: Database, query: SearchQuery, lang: String, scope: Scope, filter: (sql: String, arguments: [String: (any DatabaseValueConvertible)?]), context: Context,
            needed: Int, memo: SearchMemo
        ) {
            (self.db, self.query, self.lang, self.scope, self.filter, self.context, self.needed, self.memo) = (db, query, lang, scope, filter, context, needed, memo)
            matcher = NameMatcher(query)
        }

        var hits: [Hit] { Array(best.values) }

        var columns: String { CandidateName.columns(ranking: context.ranking) }
        var from: String { CandidateName.from(ranking: context.ranking) }

        func arguments(_ extra: [String: (any DatabaseValueConvertible)?]) -> StatementArguments {
            StatementArguments(filter.arguments.merging(extra) { $1 })
        }

        /// Whether a name may answer in this scope (`Scope`).
        func admits(_ name: CandidateName, _ match: NameMatcher.Match? = nil) -> Bool {
            guard name.matchType == "common", SearchService.languageOrder(name.lang, lang) != 0 else { return true }
            switch scope {
            case .requested: return false
            case .all: return !(match?.foldedOnly ?? false)
            }
        }

        mutating func keep(_ hit: Hit) {
            let hit = hit.scored(lang: lang, queryLength: query.folded.unicodeScalars.count)
            if let existing = best[hit.taxonID], !Hit.ordered(hit, existing) { return }
            best[hit.taxonID] = hit
        }

        /// Judges every fetched name; with `acrossNames`, a taxon none of whose names holds the
        /// whole query (the index matched it across names) is an all-names hit.
        mutating func consider(_ rows: [CandidateName], acrossNames: Bool) {
            var matched: Set<Int64> = []
            var unmatched: [Int64: [CandidateName]] = [:]
            for row in rows {
                let id = row.taxonID
                if judged.contains(id) { continue }
                if !metOtherLanguages, row.matchType == "common", SearchService.languageOrder(row.lang, lang) != 0 { metOtherLanguages = true }
                if let match = matcher.match(row), admits(row, match) {
                    keep(Hit(row, match: match))
                    matched.insert(id)
                } else if acrossNames, admits(row, NameMatcher.Match(tier: .allNames, foldedOnly: matcher.lacksAccents(row.name))) {
                    unmatched[id, default: []].append(row)
                }
            }
            for (id, names) in unmatched where !matched.contains(id) && best[id] == nil {
                guard let spread = matcher.spread(names: names.map { ($0.folded, $0.lang) }) else { continue }
                var h = Hit(names[0], match: NameMatcher.Match(tier: .allNames))
                // Across names, every word whole counts as the head does within one name.
                (h.name, h.matchType, h.lang, h.head) = (nil, nil, nil, NameMatcher.band(spread) <= NameMatcher.band(.wholeWord))
                h.nameLength = names.reduce(0) { $0 + $1.folded.unicodeScalars.count }
                keep(h)
            }
        }

        /// Whether the page is already full of hits no later tier can outrank: of groups below
        /// `group` (`SearchScore`), and, with `heads`, head hits of `group` too.
        mutating func full(below group: Int, heads: Bool = false) -> Bool {
            let settled = best.values.count { hit in
                guard !hit.weak else { return false }
                let g = SearchScore.group(tier: hit.tier, weak: false, editDistance: hit.editDistance)
                return g < group || (heads && g == group && hit.head)
            }
            if settled >= needed {
                capped = true
                return true
            }
            return false
        }

        mutating func fetch(_ sql: String, _ args: StatementArguments, cap: Int) throws -> [CandidateName] {
            let rows = try memo.names(db, sql, args)
            if rows.count >= cap { capped = true }
            return rows
        }

        /// The taxa `expression` matches in `fts_taxa`, at most `cap`.
        func taxaMatching(_ expression: String, cap: Int) throws -> [Int64] {
            try memo.taxa(db, matching: expression, cap: cap)
        }

        /// Judges every name of the taxa `expression` matches in `fts_taxa` (the cap applies to
        /// taxa), skipping taxa already judged. Returns whether they were all (fewer than `cap`).
        @discardableResult mutating func considerTaxaMatching(_ expression: String, cap: Int = fullTextCap) throws -> Bool {
            let taxa = try taxaMatching(expression, cap: cap)
            if taxa.count >= cap { capped = true }
            try judge(taxa)
            return taxa.count < cap
        }

        /// Judges every name of `taxa` not judged yet, then marks them judged.
        mutating func judge(_ taxa: [Int64]) throws {
            let fresh = taxa.filter { !judged.contains($0) }
            guard !fresh.isEmpty else { return }
            let sql = "SELECT \(columns) FROM \(from) WHERE s.taxon_id IN (SELECT value FROM json_each(:taxa))\(filter.sql)"
            let rows = try memo.names(of: fresh, db, sql) { arguments(["taxa": $0]) }
            consider(rows, acrossNames: true)
            judged.formUnion(fresh)
        }

        /// Gathers the hits: every tier, or (`allTiers` false, for a rewrite) down to prefixes.
        mutating func run(allTiers: Bool) throws {
            consider(try fetch("""
                SELECT \(columns) FROM \(from)
                WHERE s.folded IN (SELECT value FROM json_each(:forms))\(filter.sql) LIMIT \(exactCap)
                """, arguments(["forms": TaxonomyStore.jsonArray(query.wholeNameForms)]), cap: exactCap), acrossNames: false)
            if full(below: 3) { return }

            try considerTaxaMatching(query.wholeWordExpression)
            // Compound heads: names whose head is a query word or one of its forms (`Wal` → "Blauwal").
            if context.ranking {
                let heads = query.tokens.filter { $0.count >= 3 }.flatMap { [$0] + Inflection.forms($0).sorted() }
                if !heads.isEmpty {
                    consider(try fetch("""
                        SELECT \(columns) FROM name_heads h JOIN search_names s ON s.id = h.name_id JOIN taxa t ON t.id = s.taxon_id
                        LEFT JOIN taxon_prominence p ON p.taxon_id = s.taxon_id
                        WHERE h.head IN (SELECT value FROM json_each(:heads))\(filter.sql) LIMIT \(headCap)
                        """, arguments(["heads": TaxonomyStore.jsonArray(heads)]), cap: headCap), acrossNames: false)
                }
            }
            // Inflected forms that are no term of the full-text index find nothing there: once an
            // earlier search has read the vocabulary into memory, they are left out (same hits).
            let indexed = context.vocabulary.wordsIfRead
            if let inflected = query.inflectedExpression(keeping: { indexed?.mayHold($0) ?? true }) {
                try considerTaxaMatching(inflected)
            }
            if full(below: 3, heads: true) { return }

            consider(try fetch("""
                SELECT \(columns) FROM \(from)
                WHERE s.folded > :q AND s.folded < :q || char(1114111)\(filter.sql)
                ORDER BY s.folded LIMIT \(prefixCap)
                """, arguments(["q": query.folded]), cap: prefixCap), acrossNames: false)
            let everyPrefixJudged = try considerTaxaMatching(query.ftsExpression, cap: prefixCap)
            if !allTiers || full(below: 5) { return }

            try wordInternal(everyPrefixJudged: everyPrefixJudged)
        }

        /// Word-internal: the vocabulary words holding each query word (or a singular) inside, then
        /// the taxa holding such a word for every query word. With several query words whose other
        /// words hold long OR lists (`leo` is inside 1,486 words of Open Tree), the taxa of the one
        /// with the fewest such words come first: when there are few, they are judged whole
        /// (judging keeps only taxa that hold every query word) and the long lists are not read.
        mutating func wordInternal(everyPrefixJudged: Bool) throws {
            let substrings = query.substrings
            guard !substrings.isEmpty else { return }
            var alternatives: [[String]] = []
            for parts in substrings {
                let found = try WordVocabulary.wordsContaining(parts, cap: internalWordCap, in: db, cache: context.vocabulary)
                if found.capped { capped = true }
                alternatives.append(found.words.isEmpty ? parts : found.words)
            }
            // Words that all start with their query word find only taxa the prefix tier judged.
            let onlyPrefixes = everyPrefixJudged && !query.terms.contains { if case .phrase = $0 { true } else { false } }
                && zip(query.tokens.filter { $0.count >= 3 }, alternatives).allSatisfy { token, words in words.allSatisfy { $0.hasPrefix(token) } }
            func any(_ words: [String]) -> String { "(" + words.map { "\"\($0)\"" }.joined(separator: " OR ") + ")" }
            let fewest = alternatives.min { $0.count < $1.count } ?? []
            let others = alternatives.reduce(0) { $0 + $1.count } - fewest.count
            if onlyPrefixes {
                // Nothing is inside a word that the prefix tier did not judge.
            } else if others >= internalJudgedWhole, case let taxa = try taxaMatching(any(fewest), cap: internalJudgedWhole + 1), taxa.count <= internalJudgedWhole {
                try judge(taxa)
            } else {
                try considerTaxaMatching(alternatives.map(any).joined(separator: " AND "), cap: internalCap)
            }
        }
    }
}
