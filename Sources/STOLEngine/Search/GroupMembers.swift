import GRDB

/// When the best hit is a group (a taxon of a rank above species with members, "Bears" for
/// `bears`), its best-known members among the hits follow it: up to `count` of its descendants
/// that matched as well as a whole word does (`SearchScore` groups 0–3) and are not demoted, by
/// prominence (`Prominence`), then in their order. They follow the group, after any other hit
/// that matched better than they did (a second group named as exactly: Strigidae and
/// Strigiformes, both "Owls"). The rest keep their order.
enum GroupMembers {
    /// Most members moved up.
    static let count = 5

    static func follow(_ hits: inout [SearchService.Hit], membership: inout SubtreeMembership) throws {
        guard let first = hits.first, GroupRanking.isGroup(first), GroupRanking.isStrong(first), hits.count > 1 else { return }
        let strong = hits.indices.dropFirst().filter { GroupRanking.isStrong(hits[$0]) }
        guard !strong.isEmpty else { return }
        try membership.load(strong.map { hits[$0].taxonID })
        let members = try strong.filter { try membership.contains(first.taxonID, hits[$0].taxonID) }
            .sorted { a, b in hits[a].prominence != hits[b].prominence ? hits[a].prominence > hits[b].prominence : a < b }
            .prefix(count)
        guard !members.isEmpty else { return }
        func group(_ hit: SearchService.Hit) -> Int { SearchScore.group(tier: hit.tier, weak: false, editDistance: hit.editDistance) }
        let membersGroup = members.map { group(hits[$0]) }.min() ?? 3
        let moved = Set(members)
        let rest = hits.indices.dropFirst().filter { !moved.contains($0) }
        // Hits that matched better than every member stay before them.
        let before = rest.prefix { GroupRanking.isStrong(hits[$0]) && group(hits[$0]) < membersGroup }
        hits = [first] + before.map { hits[$0] } + members.map { hits[$0] } + rest.dropFirst(before.count).map { hits[$0] }
    }
}
