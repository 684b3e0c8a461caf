import GRDB

/// A group ranks, within its tier, by its members that the query finds as well (strong hits below
/// it: `SearchScore` groups 0–3, not demoted; `SubtreeMembership`):
/// - when one of them is named by the query's word alone (bare, `NameMatcher.Match.bare`, without
///   a typical word) and
///   matched at least as well, that member is what the word names (the species "Hippopotamus"
///   below the genus *Hippopotamus*, the family "Flamingos" below the order "Flamingos"): the
///   group ranks as that member less a tenth (its prominence is capped at 0.9 times the member's);
/// - otherwise a group named by the word alone ("Bears", "Frogs and toads") is what the word
///   names: it comes before its members (its prominence is raised to one thousandth above the
///   best of theirs; named with a typical word, "True frogs", level with it), which follow it
///   (`GroupMembers`), and, named so in a common name and holding organisms whose head the word
///   is, before those outside it too ("Moles" before the golden moles);
/// - a group named by more than the word whose head the word is, holding most of the organisms
///   the word names when no group is named by the word alone, is the word's kind ("marine
///   dolphins", "cactus family"; `kindValue`): it comes before its members but those far better
///   known (the domestic cat stays before "cat family");
/// - another group named by more than the word ("swallowtail butterflies") is a part or a
///   namesake of what the word names: it ranks as its best-known member less a tenth (capped at
///   0.9 times that member's prominence, then halved as a part, `SearchScore`). So "cat family"
///   comes after the domestic cat for `cat` (both whole words with the head `cat`), and "rose
///   family" after the roses for `rose`, though the apple makes the family well known.
///
/// A group none of whose members the query finds keeps its stored prominence (`Prominence`).
/// Only groups that would be on the page, groups named by the word alone and (when none is) the
/// first `kindCandidates` groups whose head the word is are looked at; groups that move into the
/// page as others move are looked at in turn.
enum GroupRanking {
    /// Rounds of ranking the page's groups (each round may move new groups into the page).
    static let rounds = 3

    /// Whether `hit` is a strong match: a whole name or whole words, not demoted.
    static func isStrong(_ hit: SearchService.Hit) -> Bool {
        !hit.weak && SearchScore.group(tier: hit.tier, weak: false, editDistance: hit.editDistance) <= 3
    }

    /// Whether `hit` is a group: a taxon above species, or without a rank.
    static func isGroup(_ hit: SearchService.Hit) -> Bool {
        !(hit.rank?.isSpeciesOrBelow ?? false)
    }

    /// Groups below the page whose head the query's word is, looked at as kinds.
    static let kindCandidates = 10

    /// Fewest organisms the query's word names below a group for it to be the word's kind.
    static let kindMembers = 3

    /// For a group not named by the word alone, the prominence it takes as the kind the word
    /// names, or nil when it is not: the query's word is its name's head ("marine dolphins",
    /// "cactus family"), at least half (and `kindMembers`) of the organisms the word names
    /// (strong hits whose head it is, `named`) lie below it, and no child of it holds half (the
    /// pines lie in *Pinus*, which NCBI does not name: "pine family" is no kind of pine). It
    /// ranks one thousandth above those of its `members` (strong hits below it, best known
    /// first) known less than twice as well as their median; one that stands out so (the
    /// domestic cat among the cats) stays before it.
    static func kindValue(
        of g: Int, members: [Int], named: [Int], in hits: [SearchService.Hit], membership: inout SubtreeMembership
    ) throws -> Int? {
        guard hits[g].head, !named.isEmpty else { return nil }
        let below = Set(members)
        let inside = named.filter(below.contains)
        guard inside.count >= kindMembers, 2 * inside.count >= named.count else { return nil }
        // The smallest group holding them is the kind: none of its children may hold half.
        let inOneChild = try membership.mostInOneChild(of: hits[g].taxonID, inside.map { hits[$0].taxonID })
        guard 2 * inOneChild < named.count else { return nil }
        let sorted = inside.map { max(hits[$0].prominence, 0) }.sorted()
        let median = sorted[sorted.count / 2]
        let typical = sorted.last { $0 < 2 * median + 1 } ?? median
        return min(typical + 1, 1_000)
    }

    /// Sets the prominence of the strong groups among the first `needed` of the ordered `hits` by
    /// their members and orders them again; `lang` is the search's. Returns the membership read,
    /// for `GroupMembers`.
    static func rank(_ hits: inout [SearchService.Hit], needed: Int, lang: String, in db: Database) throws -> SubtreeMembership {
        var membership = SubtreeMembership(db)
        var ranked: Set<Int64> = []
        var loaded = false
        // A kind is looked for only when no group is named by the word alone.
        var headGroups = hits.contains { isStrong($0) && isGroup($0) && $0.bare } ? kindCandidates : 0
        for _ in 0..<rounds {
            // The page's strong groups, those named by the word alone wherever they are, and the
            // first `kindCandidates` (over all rounds) whose head the word is (a kind, `kindValue`).
            let groups = hits.indices.filter {
                guard isStrong(hits[$0]), isGroup(hits[$0]), !ranked.contains(hits[$0].taxonID) else { return false }
                if $0 < needed || hits[$0].bare { return true }
                guard hits[$0].head, headGroups < kindCandidates else { return false }
                headGroups += 1
                return true
            }
            guard !groups.isEmpty else { break }
            // The strong hits, best known first: a group's best member is the first found below it.
            let strong = hits.indices.filter { isStrong(hits[$0]) }.sorted { hits[$0].prominence > hits[$1].prominence }
            if !loaded {
                try membership.load(strong.map { hits[$0].taxonID })
                loaded = true
            }
            // The organisms the query's word names (its head), counted once.
            var namedOrganisms: [Int]?
            func wordOrganisms() -> [Int] {
                if let namedOrganisms { return namedOrganisms }
                let found = strong.filter { hits[$0].head && !isGroup(hits[$0]) }
                namedOrganisms = found
                return found
            }
            var changed = false
            for g in groups {
                let group = hits[g].taxonID
                ranked.insert(group)
                let level = SearchScore.group(tier: hits[g].tier, weak: false, editDistance: nil)
                let members = try strong.filter { try membership.contains(group, hits[$0].taxonID) }
                guard let best = members.first else { continue }
                let named = members.first { hits[$0].bare && !hits[$0].typical && SearchScore.group(tier: hits[$0].tier, weak: false, editDistance: nil) <= level }
                let value: Int
                if let named {
                    value = min(hits[g].prominence, Int((0.9 * Double(max(hits[named].prominence, 0))).rounded()))
                } else if hits[g].bare && hits[g].typical {
                    // Named with a typical word ("True frogs"), it is one of the groups the word names:
                    // level with its best member, below a group the word names alone ("Frogs and toads").
                    value = max(hits[g].prominence, min(max(hits[best].prominence, 0), 1_000))
                } else if hits[g].bare {
                    // Named by the word alone in a common name and holding organisms the word names, it
                    // comes before every one the word names with more words, its own or not ("Moles"
                    // before the golden moles; not "pine & spruce aphids", which holds no pine).
                    let word = wordOrganisms()
                    let holds = hits[g].matchType == "common" && !Set(members).isDisjoint(with: word)
                    let above = holds ? word.map { hits[$0].prominence }.max() ?? 0 : 0
                    value = max(hits[g].prominence, min(max(hits[best].prominence, above, 0) + 1, 1_000))
                } else if let kind = try kindValue(of: g, members: members, named: wordOrganisms(), in: hits, membership: &membership) {
                    // The word's kind ("marine dolphins"): no part of it.
                    hits[g].kind = true
                    value = max(hits[g].prominence, kind)
                } else {
                    value = min(hits[g].prominence, Int((0.9 * Double(max(hits[best].prominence, 0))).rounded()))
                }
                guard value != hits[g].prominence else { continue }
                hits[g].prominence = value
                hits[g] = hits[g].scored(lang: lang, queryLength: hits[g].queryLength)
                changed = true
            }
            guard changed else { break }
            let unordered = hits
            hits = unordered.indices.sorted { SearchService.Hit.ordered(unordered[$0], unordered[$1]) }.map { unordered[$0] }
        }
        return membership
    }
}
