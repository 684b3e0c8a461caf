/// Finds a species' closest species by tree distance, walking outward ancestor by ancestor
/// (its own subtree, then genus, family, order, …) and breadth-first below each.
///
/// It returns every candidate that could still be in the top `n` once ties at the cut-off distance
/// are broken by name; the caller sorts by (distance, name) and keeps `n`. Siblings are assumed to
/// be in name order, which lets a huge genus stop after `n` names instead of scanning them all.
public struct RelativesFinder {
    public struct Candidate: Sendable, Equatable {
        public var node: Int32
        public var lca: Int32
        public var distance: Int32
    }

    public struct Result: Sendable {
        public var candidates: [Candidate]
        /// True when the search stopped at `maxVisited` nodes before it was sure of the answer.
        public var truncated: Bool
        public var visited: Int
    }

    public let tree: TreeIndex
    /// Whether each node is a species (the only nodes returned).
    public let isSpecies: (Int32) -> Bool

    public init(tree: TreeIndex, isSpecies: @escaping (Int32) -> Bool) {
        self.tree = tree
        self.isSpecies = isSpecies
    }

    public func candidates(of species: Int32, n: Int, maxVisited: Int = .max) -> Result {
        var found: [Candidate] = []
        var histogram: [Int32: Int] = [:]
        func count(below d: Int32) -> Int { histogram.reduce(0) { $0 + ($1.key < d ? $1.value : 0) } }
        var visited = 0
        // Starts at the species itself: species below it (where a source nests them) are relatives too.
        var child: Int32 = -1
        var ancestor = species
        var up: Int32 = 0
        while ancestor >= 0 {
            // An ancestor ranked species (sources that nest species) is a relative at distance `up`.
            if up > 0, isSpecies(ancestor) {
                found.append(Candidate(node: ancestor, lca: ancestor, distance: up))
                histogram[up, default: 0] += 1
            }
            if count(below: up + 1) >= n { break }
            var frontier = Array(tree.children(of: ancestor))
            var level: Int32 = 1
            while !frontier.isEmpty {
                let d = up + level
                let closer = count(below: d)
                if closer >= n { break }
                var next: [Int32] = []
                var takenHere = 0
                for node in frontier where node != child {
                    visited += 1
                    if visited > maxVisited {
                        return Result(candidates: found, truncated: true, visited: visited - 1)
                    }
                    if isSpecies(node) {
                        found.append(Candidate(node: node, lca: ancestor, distance: d))
                        histogram[d, default: 0] += 1
                        takenHere += 1
                        // Level 1 is in name order: enough names here settle every remaining slot.
                        if level == 1, takenHere >= n - closer { break }
                    }
                    next.append(contentsOf: tree.children(of: node))
                }
                if level == 1, takenHere >= n - closer { break }
                frontier = next
                level += 1
            }
            child = ancestor
            ancestor = tree.parent[Int(ancestor)]
            up += 1
        }
        return Result(candidates: found, truncated: false, visited: visited)
    }
}
