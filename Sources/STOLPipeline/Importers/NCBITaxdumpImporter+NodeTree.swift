extension NCBITaxdumpImporter {
    /// The parent links of `nodes.dmp`, resolved without `names.dmp`, so that it is done while
    /// the names are still being read: each node's parent, an order with parents before children,
    /// the cycles, and which nodes lie below a species. What depends on names (placeholders) is
    /// folded afterwards, walking `topDown` once.
    struct NodeTree {
        /// Each node's parent (its position), or -1: a root, a node whose parent is missing from
        /// the dump, or a node on or under a cycle.
        var parent: [Int32]
        /// Every node with a parent, each after its parent.
        var topDown: [Int32]
        /// The parent tax id of each node whose parent is missing from the dump (kept so that the
        /// assembler reports it); 0 for every other node.
        var missingParentKey: [Int64]
        /// Nodes below a node of rank species, at any depth.
        var belowSpecies: [Bool]
        /// Nodes on a parent cycle or under one: they are skipped.
        var onCycle: [Bool]
        /// One node of each cycle, in the order they were found.
        var cycles: [Int32]

        /// Resolves the nodes `taxIDs[i]`, `parentIDs[i]` (a root is its own parent), of rank
        /// level `levels[i]`, found by tax id through `indexOf`.
        init(taxIDs: [Int64], parentIDs: [Int64], levels: [Int8], indexOf: TaxIDIndex, speciesLevel: Int8) {
            let n = taxIDs.count
            parent = [Int32](repeating: -1, count: n)
            topDown = []
            topDown.reserveCapacity(n)
            missingParentKey = [Int64](repeating: 0, count: n)
            belowSpecies = [Bool](repeating: false, count: n)
            cycles = []
            var state = [UInt8](repeating: 0, count: n)  // 0 new, 1 on the current path, 2 done, 3 on or under a cycle
            var path: [Int32] = []
            for start in 0..<n where state[start] == 0 {
                // Walk up to a settled node, a root, a missing parent or the path itself (a cycle).
                path.removeAll(keepingCapacity: true)
                var node = Int32(start)
                var cycle = false
                while true {
                    let i = Int(node)
                    if state[i] == 2 || state[i] == 3 { break }
                    if state[i] == 1 { cycle = true; break }
                    state[i] = 1
                    path.append(node)
                    guard parentIDs[i] != taxIDs[i], let up = indexOf[parentIDs[i]] else { break }
                    node = up
                }
                if cycle {
                    cycles.append(node)
                    var c = node
                    repeat {
                        state[Int(c)] = 3
                        c = indexOf[parentIDs[Int(c)]]!
                    } while c != node
                }
                // Settle the path from the top down.
                for p in path.reversed() where state[Int(p)] == 1 {
                    let i = Int(p)
                    state[i] = 2
                    guard parentIDs[i] != taxIDs[i] else { continue }  // a root
                    guard let up = indexOf[parentIDs[i]].map(Int.init) else {
                        missingParentKey[i] = parentIDs[i]
                        continue
                    }
                    if state[up] == 3 {
                        state[i] = 3  // hangs from a cycle: dropped with it
                        continue
                    }
                    parent[i] = Int32(up)
                    belowSpecies[i] = belowSpecies[up] || levels[up] == speciesLevel
                    topDown.append(p)
                }
            }
            onCycle = state.map { $0 == 3 }
        }
    }
}
