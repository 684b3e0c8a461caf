import GRDB
import GRDBSQLite

/// Checks that `taxa` is a forest the engine can serve: every `parent_id` names a taxon, every
/// taxon is reachable from a root (no parent cycle, no taxon its own parent), no taxon is deeper
/// than `TaxonomyLimits.maxDepth` (a lineage is served whole, root first), and a stored
/// `child_count` is each taxon's number of children. One pass over `taxa` in rowid order, then
/// work on arrays (NCBI's 885,404 taxa: about a quarter of a second).
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
        func index(of id: Int64) -> Int32? {
            var lo = 0, hi = n
            while lo < hi {
                let mid = (lo + hi) >> 1
                if ids[mid] < id { lo = mid + 1 } else { hi = mid }
            }
            return lo < n && ids[lo] == id ? Int32(lo) : nil
        }
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
        let tree: TreeIndex
        do {
            tree = try TreeIndex(parent: parent, order: <)
        } catch {
            switch error {
            case .cycle(let node): return Array((problems + [cycleProblem(from: node, parent: parent, ids: ids)]).prefix(limit))
            }
        }
        if let deepest = tree.depth.indices.max(by: { tree.depth[$0] < tree.depth[$1] }), Int(tree.depth[deepest]) > TaxonomyLimits.maxDepth {
            problems.append("taxa.parent_id: taxa rowid \(ids[deepest]) is \(tree.depth[deepest]) levels below its root; the engine serves lineages of at most \(TaxonomyLimits.maxDepth)")
        }
        if storesChildCounts {
            for i in 0..<n where problems.count < limit {
                let children = Int64(tree.childStart[i + 1] - tree.childStart[i])
                if childCounts[i] >= 0, childCounts[i] != children {
                    problems.append("taxa.child_count holds \(childCounts[i]) where the taxon has \(children) children (taxa rowid \(ids[i]))")
                }
            }
        }
        return Array(problems.prefix(limit))
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
