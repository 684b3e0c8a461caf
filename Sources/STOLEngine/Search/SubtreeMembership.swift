import GRDB

/// Which taxa lie below which, for the hits of one search, from the Euler tour: a taxon lies
/// below a group when its first occurrence falls between the group's and the first occurrence of
/// the next taxon after the group's subtree (the group's next sibling, or an ancestor's). Reads
/// a first occurrence per taxon and a few siblings per group, not the group's subtree, so that
/// an order of 50,000 taxa costs no more than a genus.
struct SubtreeMembership {
    let db: Database
    /// First occurrences (`first_occurrence.seq`) read so far.
    private var first: [Int64: Int64] = [:]
    /// Each group's range of first occurrences read so far.
    private var ranges: [Int64: Range<Int64>] = [:]

    init(_ db: Database) { self.db = db }

    /// Reads the first occurrences of `taxa` not read yet, in one statement.
    mutating func load(_ taxa: some Collection<Int64>) throws {
        let fresh = taxa.filter { first[$0] == nil }
        guard !fresh.isEmpty else { return }
        try db.cachedStatement(sql: "SELECT taxon_id, seq FROM first_occurrence WHERE taxon_id IN (SELECT value FROM json_each(?))")
            .forEachStoredRow([TaxonomyStore.jsonArray(fresh)], rowids: [("first_occurrence", 0)]) { row in
                first[try row.taxonID(0, "first_occurrence.taxon_id")] = try row.integer(1, "first_occurrence.seq")
            }
    }

    /// Whether `member` lies below `group` (not the group itself); false for a taxon outside the
    /// tour. Load `member` first.
    mutating func contains(_ group: Int64, _ member: Int64) throws -> Bool {
        guard member != group, let seq = first[member], let range = try range(of: group) else { return false }
        return range.contains(seq)
    }

    /// How many of `members` (loaded, below `group`) lie below the one child of `group` that holds
    /// the most of them: one statement reading the first occurrences of the group's children.
    func mostInOneChild(of group: Int64, _ members: [Int64]) throws -> Int {
        let starts = try Int64.fetchAll(db.cachedStatement(sql: """
            SELECT f.seq FROM taxa t JOIN first_occurrence f ON f.taxon_id = t.id WHERE t.parent_id = ? ORDER BY f.seq
            """), arguments: [group])
        guard !starts.isEmpty else { return 0 }
        var counts: [Int: Int] = [:]
        for member in members {
            guard let seq = first[member] else { continue }
            // The last child starting at or before the member: the member lies in its subtree.
            var low = 0, high = starts.count
            while low < high {
                let mid = (low + high) / 2
                if starts[mid] <= seq { low = mid + 1 } else { high = mid }
            }
            if low > 0 { counts[low - 1, default: 0] += 1 }
        }
        return counts.values.max() ?? 0
    }

    /// The first occurrences of `group`'s subtree, from its own to the next taxon's after it.
    mutating func range(of group: Int64) throws -> Range<Int64>? {
        if let known = ranges[group] { return known }
        try load([group])
        guard let start = first[group] else { return nil }
        var node = group, nodeFirst = start
        var end = Int64.max
        // Up the tree until a taxon has a later sibling; TaxonomyLimits bounds the depth.
        for _ in 0..<TaxonomyLimits.maxDepth {
            let parent = try db.cachedStatement(sql: "SELECT parent_id, id FROM taxa WHERE id = ?")
                .firstStoredRow([node], rowids: [("taxa", 1)]) { try $0.taxonIDOrNull(0, "taxa.parent_id") } ?? nil
            let siblings = parent == nil
                ? "SELECT min(f.seq) FROM taxa t JOIN first_occurrence f ON f.taxon_id = t.id WHERE t.parent_id IS NULL AND f.seq > :after"
                : "SELECT min(f.seq) FROM taxa t JOIN first_occurrence f ON f.taxon_id = t.id WHERE t.parent_id = :parent AND f.seq > :after"
            var arguments: StatementArguments = ["after": nodeFirst]
            if let parent { arguments += ["parent": parent] }
            if let next = try db.cachedStatement(sql: siblings).firstStoredRow(arguments, { try $0.integerOrNull(0, "first_occurrence.seq") }) ?? nil {
                end = next
                break
            }
            guard let parent else { break }
            try load([parent])
            guard let parentFirst = first[parent] else { break }
            (node, nodeFirst) = (parent, parentFirst)
        }
        let range = start..<max(end, start + 1)
        ranges[group] = range
        return range
    }
}
