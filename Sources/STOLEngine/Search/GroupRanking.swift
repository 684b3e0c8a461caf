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
///   (`GroupMembers`);
/// - a group named by more than the word ("cat family", "swallowtail butterflies") is a part or a
///   namesake of what the word names: it ranks as its best-known member less a tenth (capped at
///   0.9 times that member's prominence, then halved as a part, `SearchScore`). So "cat family"
///   comes after the domestic cat for `cat` (both whole words with the head `cat`), and "rose
///   family" after the roses for `rose`, though the apple makes the family well known.
///
/// A group none of whose members the query finds keeps its stored prominence (`Prominence`).
/// Only groups that would be on the page, and groups named by the word alone, are looked at;
/// groups that move into the page as others move are looked at in turn.
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

    /// Sets the prominence of the strong groups among the first `needed` of the ordered `hits` by
    /// their members and orders them again; `lang` is the search's. Returns the membership read,
    /// for `GroupMembers`.
    static func rank(_ hits: inout [SearchService.Hit], needed: Int, lang: String, in db: Database) throws -> SubtreeMembership {
        var membership = SubtreeMembership(db)
        var ranked: Set<Int64> = []
        var loaded = false
        for _ in 0..<rounds {
            // The page's strong groups, and those named by the word alone wherever they are.
            let groups = hits.indices.filter {
                ($0 < needed || hits[$0].bare) && isStrong(hits[$0]) && isGroup(hits[$0]) && !ranked.contains(hits[$0].taxonID)
            }
            guard !groups.isEmpty else { break }
            // The strong hits, best known first: a group's best member is the first found below it.
            let strong = hits.indices.filter { isStrong(hits[$0]) }.sorted { hits[$0].prominence > hits[$1].prominence }
            if !loaded {
                try membership.load(strong.map { hits[$0].taxonID })
                loaded = true
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
                } else if hits[g].bare {
                    // Named with a typical word ("True frogs"), it is one of the groups the word names:
                    // level with its best member, below a group the word names alone ("Frogs and toads").
                    value = max(hits[g].prominence, min(max(hits[best].prominence, 0) + (hits[g].typical ? 0 : 1), 1_000))
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
