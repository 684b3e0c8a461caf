/// The one score search results are ordered by, and autocomplete's suggestions: a group, then
/// within it the head, the language, the taxon's prominence and the query as typed, each weighing
/// more than all that follow, so prominence never lifts a weaker match over a stronger one.
///
/// score = 1 − 0.09 · group − 0.089 · (1 − quality), with quality in [0, 1]:
///
/// | group | hits |
/// |---|---|
/// | 0, 1, 2 | `exact`, `exact-folded`, `exact-inflected` (a demoted taxon's exact name: 2) |
/// | 3 | `whole-word` and `inflected`; a one-word scientific name matched whole by a query typed without capitals |
/// | 4, 5, 6 | `prefix`, `word-internal`, `all-names` |
/// | 7 | weak: viruses, hybrids and samples (`Prominence.demoted`) and names that lack the query's accents, unless exact |
/// | 8, 9 | `fuzzy`, one edit, two edits |
/// | 10 | `partial` |
///
/// quality = 0.5 · head (a query word is the name's head; for a typo, the whole name or its head
/// word mistyped; across names, every word whole) + 0.2 · language (1 the requested language or a
/// scientific name, 0.5 a synonym or English, 0 another language) + 0.15 · coverage (in groups 5, 6, 8 and 9
/// only: the query's length over the name's, as a fragment or a typo points at one name by its
/// letters) + 0.1 · prominence (0…1; halved for a group in group 3 whose name has words
/// besides its head, a part of the group meant: "leafcutter bees" for `bee`, unless it is the
/// word's kind, `GroupRanking.kindValue`; 0.3 more, up to 1,
/// for an organism whose name is the query word beside a typical word alone, "Common carp" for
/// `carp`, `NameMatcher.Match.typical`) + 0.01 · as typed
/// (not a reading of the lexicon's or a spelling's, `QueryRewrites`). Whole words and
/// inflections rank as one. In group 7 the tier comes first:
/// 0.9 · (1 − tier / 9) + 0.099 · the quality above (tiers in `MatchTier`'s order, from 0). A partial match's quality is
/// 0.5 · the query's head word matched + 0.3 · the share of query words matched + 0.03 · (1 −
/// the name's unmatched words, up to 4, / 4) + 0.05 · a species + 0.05 · prominence (`PartialMatch`).
enum SearchScore {
    /// Prominence added, in thousandths, to an organism's hit whose name is the query word beside a
    /// typical word (`SearchService.Hit`).
    static let typicalProminence = 300

    /// The group of a hit (see the type's documentation): a `demoted` taxon's exact name ranks
    /// with names in another number, an `uncapitalizedGenus` (`NameMatcher.Match`) with whole words.
    static func group(tier: MatchTier, weak: Bool, editDistance: Int?, demoted: Bool = false, uncapitalizedGenus: Bool = false) -> Int {
        if uncapitalizedGenus, tier <= .exactFolded { return demoted ? 7 : 3 }
        switch tier {
        case .exact: return demoted ? 2 : 0
        case .exactFolded: return demoted ? 2 : 1
        case .exactInflected: return weak ? 7 : 2
        case .partial: return 10
        case .fuzzy: return (editDistance ?? 2) <= 1 ? 8 : 9
        default:
            if weak { return 7 }
            switch tier {
            case .wholeWord, .inflected: return 3
            case .prefix: return 4
            case .wordInternal: return 5
            default: return 6
            }
        }
    }

    /// The quality within a group (groups 0–9 but 7's tier part), from 0 to below 1.
    static func quality(head: Bool, language: Double, asTyped: Bool, prominence: Int, coverage: Double = 0) -> Double {
        0.5 * (head ? 1 : 0) + 0.2 * language + 0.15 * min(max(coverage, 0), 1) + 0.1 * Double(min(max(prominence, 0), 1_000)) / 1_000
            + 0.01 * (asTyped ? 1 : 0)
    }

    /// Whether a group's hits rank by how much of the name the query covers before prominence:
    /// word-internal matches, words across names and typos, which point at one name by its
    /// letters rather than name a kind (a prefix is still being typed: prominence decides).
    static func weighsCoverage(_ group: Int) -> Bool { group == 5 || group == 6 || group == 8 || group == 9 }

    /// The quality of a hit of `tier` in group 7, from its `base` quality: the tier first.
    static func weak(tier: MatchTier, base: Double) -> Double {
        0.9 * (1 - Double(tier.order) / 9) + 0.099 * base
    }

    /// The score of a hit in `group` with `quality`, rounded to 1e-6.
    static func score(group: Int, quality: Double) -> Double {
        ((1 - 0.09 * Double(group) - 0.089 * (1 - min(max(quality, 0), 1))) * 1_000_000).rounded() / 1_000_000
    }

    /// The language component: 1 for the requested language or a scientific name, 0.5 for a
    /// synonym or English, 0 for another language.
    static func language(nameLang: String?, matchType: String?, lang: String) -> Double {
        if matchType == "synonym" { return 0.5 }
        switch SearchService.languageOrder(nameLang, lang) {
        case 0: return 1
        case 1: return 0.5
        default: return 0
        }
    }
}
