/// How well a taxon's best name matched a query, best first. Results report it as `matchTier`.
public enum MatchTier: String, Sendable, Comparable, CaseIterable {
    /// The whole name, accents and all (case aside).
    case exact
    /// The whole name once accents are set aside (`lowe` for "Löwe").
    case exactFolded = "exact-folded"
    /// The whole name with the query's plurals in the singular (`lions` for "Lion", `house mice`
    /// for "House mouse"): above whole words, so the lion comes before "ant lions".
    case exactInflected = "exact-inflected"
    /// Every query word is a whole word of the name (`elephant` in "Asian elephant").
    case wholeWord = "whole-word"
    /// Whole words in another number (`wolves` for "Grey wolf", `Hund` for "Hunde").
    case inflected
    /// Every query word starts a word of the name (`panth` for "Panthera").
    case prefix
    /// A query word inside a word of the name, as in compounds (`Fuchs` for "Rotfuchs").
    case wordInternal = "word-internal"
    /// The query words are spread over several of the taxon's names (`leo lion`).
    case allNames = "all-names"
    /// Within one or two edits of a name or one of its words.
    case fuzzy
    /// No taxon holds every query word: some of them, the head first (`common raccoon` for
    /// "Raccoon"; `PartialMatch`).
    case partial

    var order: Int { Self.allCases.firstIndex(of: self)! }

    public static func < (a: MatchTier, b: MatchTier) -> Bool { a.order < b.order }
}
