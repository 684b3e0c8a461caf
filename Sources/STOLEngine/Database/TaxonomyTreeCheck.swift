import GRDB
import GRDBSQLite

/// Checks that `taxa` is a forest the engine can serve: every `parent_id` names a taxon, every
/// taxon is reachable from a root (no parent cycle, no taxon its own parent), no taxon is deeper
/// than `TaxonomyLimits.maxDepth` (a lineage is served whole, root first), a stored
/// `child_count` is each taxon's number of children, and the Euler tour and first occurrences
/// (when the file has them) walk this very tree, since compare and lineages answer from the tour.
/// One pass over `taxa`, `euler_tour` and `first_occurrence` each, in rowid order, then work on
/// arrays.
///
/// Values of the wrong type are `StoredValueCheck`'s to report; rows whose id or parent is not an
/// integer are left out here.
enum TaxonomyTreeCheck {
    /// The problems found, as sentences, at most `limit`; none for a sound tree.
    static func problems(_ db: Database, limit: Int = 5) throws -> [String] {
        let storesChildCounts = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM pragma_table_info('taxa') WHERE name = 'child_count')") ?? false
        let statement = try db.makeStatement(sql: "SELECT id, parent_id\(storesChildCounts ? ", child_count" : "") FROM taxa NOT INDEXED")
        let handle = statement.sqliteStatement
        var ids: [Int64] = [], parentIDs: [Int64] = [], childCounts: [Int64] = []
        while try db.nextRow(handle) {
            guard sqlite3_column_type(handle, 0) == SQLITE_INTEGER else { continue }
            let parentType = sqlite3_column_type(handle, 1)
            guard parentType == SQLITE_INTEGER || parentType == SQLITE_NULL else { continue }
            ids.append(sqlite3_column_int64(handle, 0))
            parentIDs.append(parentType == SQLITE_NULL ? -1 : sqlite3_column_int64(handle, 1))
            if storesChildCounts { childCounts.append(sqlite3_column_type(handle, 2) == SQLITE_INTEGER ? sqlite3_column_int64(handle, 2) : -1) }
        }
        let n = ids.count
        guard n < Int(Int32.max) else { return ["taxa holds \(n) rows; the engine serves at most \(Int32.max - 1)"] }
        // Rows come in rowid order, so `ids` is sorted: parents by binary search.
        func index(of id: Int64) -> Int32? { ids.position(ofSortedID: id) }
        var problems: [String] = []
        var parent = [Int32](repeating: -1, count: n)
        for i in 0..<n where parentIDs[i] != -1 {
            if let p = index(of: parentIDs[i]) {
                parent[i] = p
            } else {
                // Left a root here, so that the rest of the tree is still checked.
                if problems.count < limit { problems.append("taxa.parent_id holds \(parentIDs[i]), which names no taxon (taxa rowid \(ids[i]))") }
            }
        }
        parentIDs = []
        // Children in compressed form (no order needed here), then depths by an explicit-stack
        // walk from the roots: a taxon never reached sits on a cycle or hangs below one.
        var childStart = [Int32](repeating: 0, count: n + 1)
        for i in 0..<n where parent[i] >= 0 { childStart[Int(parent[i]) + 1] += 1 }
        for i in 0..<n { childStart[i + 1] += childStart[i] }
        var fill = childStart
        var children = [Int32](repeating: 0, count: n)
        for i in 0..<n where parent[i] >= 0 {
            let p = Int(parent[i])
            children[Int(fill[p])] = Int32(i)
            fill[p] += 1
        }
        fill = []
        var depth = [Int32](repeating: -1, count: n)
        var stack: [Int32] = []
        for root in 0..<n where parent[root] < 0 {
            depth[root] = 0
            stack.append(Int32(root))
            while let node = stack.popLast() {
                let d = depth[Int(node)] + 1
                for c in Int(childStart[Int(node)])..<Int(childStart[Int(node) + 1]) {
                    depth[Int(children[c])] = d
                    stack.append(children[c])
                }
            }
        }
        children = []
        if let unreached = depth.firstIndex(of: -1) {
            return Array((problems + [cycleProblem(from: Int32(unreached), parent: parent, ids: ids)]).prefix(limit))
        }
        if let deepest = depth.indices.max(by: { depth[$0] < depth[$1] }), Int(depth[deepest]) > TaxonomyLimits.maxDepth {
            problems.append("taxa.parent_id: taxa rowid \(ids[deepest]) is \(depth[deepest]) levels below its root; the engine serves lineages of at most \(TaxonomyLimits.maxDepth)")
        }
        if problems.count < limit { problems += try tourProblems(db, ids: ids, parent: parent, depth: depth, index: index(of:)) }
        if storesChildCounts {
            for i in 0..<n where problems.count < limit {
                let count = Int64(childStart[i + 1] - childStart[i])
                if childCounts[i] >= 0, childCounts[i] != count {
                    problems.append("taxa.child_count holds \(childCounts[i]) where the taxon has \(count) children (taxa rowid \(ids[i]))")
                }
            }
        }
        return Array(problems.prefix(limit))
    }

    /// Where `euler_tour` is not a walk of the tree (`parent`, `depth`, by node; `index` finds a
    /// taxon id's node) or `first_occurrence` not its first visits: the first such place. None for
    /// a database without a tour (the engine then builds its tree from `taxa`).
    static func tourProblems(_ db: Database, ids: [Int64], parent: [Int32], depth: [Int32], index: (Int64) -> Int32?) throws -> [String] {
        // A `--database` file in the layout of earlier engine builds (`euler_tour.idx`) is read
        // through views; its tour is checked against taxa when the in-memory tree is built.
        func columns(_ table: String) throws -> Set<String> {
            Set(try String.fetchAll(db, sql: "SELECT CAST(name AS TEXT) FROM pragma_table_info(?)", arguments: [table]))
        }
        guard try columns("euler_tour").isSuperset(of: ["seq", "taxon_id", "depth"]),
              try columns("first_occurrence").isSuperset(of: ["taxon_id", "seq"]) else { return [] }
        let statement = try db.makeStatement(sql: "SELECT seq, taxon_id, depth FROM euler_tour NOT INDEXED")
        let handle = statement.sqliteStatement
        var first = [Int64](repeating: -1, count: ids.count)
        var path: [Int32] = []
        var previous: Int64 = -1
        var visited = 0
        var read = false
        func wrong(_ seq: Int64, _ why: String) -> [String] { ["euler_tour does not walk the tree of taxa.parent_id at seq \(seq): \(why) (euler_tour rowid \(seq))"] }
        while try db.nextRow(handle) {
            read = true
            let seq = sqlite3_column_int64(handle, 0)
            // These tables are read here only (`StoredValueCheck.checkedWithTheTree`): their types too.
            if sqlite3_column_type(handle, 1) != SQLITE_INTEGER || sqlite3_column_type(handle, 2) != SQLITE_INTEGER {
                let (i, column) = sqlite3_column_type(handle, 1) != SQLITE_INTEGER ? (Int32(1), "taxon_id") : (Int32(2), "depth")
                return ["euler_tour.\(column) holds \(StoredRow.describe(handle, i)) where the schema has an integer (euler_tour rowid \(seq))"]
            }
            let id = sqlite3_column_int64(handle, 1), level = sqlite3_column_int64(handle, 2)
            guard let node = index(id) else { return wrong(seq, "taxon \(id) is not in taxa") }
            if level == previous + 1 || (level == 0 && previous <= 0) {
                // A first visit: one level below the taxon before it (or a new root).
                guard first[Int(node)] < 0 else { return wrong(seq, "taxon \(id) is entered twice") }
                guard Int64(depth[Int(node)]) == level else { return wrong(seq, "taxon \(id) is at depth \(level), taxa puts it at \(depth[Int(node)])") }
                let expectedParent = level == 0 ? Int32(-1) : path[Int(level) - 1]
                guard parent[Int(node)] == expectedParent else { return wrong(seq, "taxon \(id) is entered below another parent than its taxa.parent_id") }
                first[Int(node)] = seq
                visited += 1
                if path.count > Int(level) { path[Int(level)] = node } else { path.append(node) }
            } else if level == previous - 1, level >= 0, Int(level) < path.count, path[Int(level)] == node {
                // Back up to the parent.
            } else {
                return wrong(seq, "depth \(level) after depth \(previous)")
            }
            previous = level
        }
        guard read else { return [] }
        guard visited == ids.count else { return ["euler_tour visits \(visited) of the \(ids.count) taxa"] }
        let occurrences = try db.makeStatement(sql: "SELECT taxon_id, seq FROM first_occurrence NOT INDEXED")
        let rows = occurrences.sqliteStatement
        var listed = 0
        while try db.nextRow(rows) {
            let id = sqlite3_column_int64(rows, 0)
            guard sqlite3_column_type(rows, 1) == SQLITE_INTEGER else {
                return ["first_occurrence.seq holds \(StoredRow.describe(rows, 1)) where the schema has an integer (first_occurrence rowid \(id))"]
            }
            guard let node = index(id) else { return ["first_occurrence.taxon_id holds \(id), which names no taxon (first_occurrence rowid \(id))"] }
            let seq = sqlite3_column_int64(rows, 1)
            guard first[Int(node)] == seq else {
                return ["first_occurrence.seq holds \(seq) where the Euler tour first visits the taxon at \(first[Int(node)]) (first_occurrence rowid \(id))"]
            }
            listed += 1
        }
        return listed == ids.count ? [] : ["first_occurrence lists \(listed) of the \(ids.count) taxa"]
    }

    /// Names the cycle `node` is on or hangs below: the walk up from it, until a taxon repeats.
    static func cycleProblem(from node: Int32, parent: [Int32], ids: [Int64]) -> String {
        var seen: [Int32: Int] = [:]
        var path: [Int32] = []
        var current = node
        while current >= 0, seen[current] == nil {
            seen[current] = path.count
            path.append(current)
            current = parent[Int(current)]
        }
        let cycle = current >= 0 ? Array(path[seen[current, default: 0]...]) + [current] : path
        let shown = cycle.prefix(6).map { String(ids[Int($0)]) }.joined(separator: " → ") + (cycle.count > 6 ? " → …" : "")
        return "taxa.parent_id: taxa rowid \(ids[Int(node)]) is not reachable from a root; its parents form a cycle (\(shown))"
    }
}
