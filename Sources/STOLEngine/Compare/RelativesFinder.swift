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

    /// A walk outward from one species, paused before its next ancestor: what it found so far and
    /// where it goes next. What the rest of the walk finds depends only on `child`, `up` and how
    /// many candidates were found at each distance, never on which ones.
    public struct Walk: Sendable {
        /// Candidates found so far, in the order found.
        public fileprivate(set) var found: [Candidate] = []
        /// Candidates found at each distance (index = distance).
        fileprivate var histogram: [Int] = []
        /// The node whose subtree was walked last (skipped under `ancestor`), or -1 at the start.
        public fileprivate(set) var child: Int32 = -1
        /// The next ancestor whose subtree is walked; the species itself at the start.
        public fileprivate(set) var ancestor: Int32
        /// Steps from the species up to `ancestor`.
        public fileprivate(set) var up: Int32 = 0
        /// Nodes looked at so far.
        public fileprivate(set) var visited = 0
        /// True once the walk is sure of its answer (or ran out of ancestors).
        public fileprivate(set) var finished = false

        init(species: Int32) { ancestor = species }

        /// The farthest distance of a candidate found so far (0 when none is).
        public var farthest: Int32 { Int32(max(histogram.count - 1, 0)) }

        /// Candidates found at distances below `d`.
        func count(below d: Int32) -> Int {
            var sum = 0
            for i in 0..<min(Int(d), histogram.count) { sum += histogram[i] }
            return sum
        }

        mutating func add(_ candidate: Candidate) {
            found.append(candidate)
            let d = Int(candidate.distance)
            if d >= histogram.count { histogram.append(contentsOf: repeatElement(0, count: d + 1 - histogram.count)) }
            histogram[d] += 1
        }
    }

    public let tree: TreeIndex
    /// Whether each node is a species (the only nodes returned).
    public let isSpecies: (Int32) -> Bool

    public init(tree: TreeIndex, isSpecies: @escaping (Int32) -> Bool) {
        self.tree = tree
        self.isSpecies = isSpecies
    }

    public func candidates(of species: Int32, n: Int, maxVisited: Int = .max) -> Result {
        var walk = start(at: species)
        while !walk.finished {
            guard advance(&walk, n: n, maxVisited: maxVisited) else {
                return Result(candidates: walk.found, truncated: true, visited: walk.visited)
            }
        }
        return Result(candidates: walk.found, truncated: false, visited: walk.visited)
    }

    /// A walk from `species` that has looked at nothing yet. It starts at the species itself:
    /// species below it (where a source nests them) are relatives too.
    public func start(at species: Int32) -> Walk { Walk(species: species) }

    /// Walks the subtree of `walk.ancestor` (less the part walked already) and moves up to its
    /// parent. Returns false when it stopped at `maxVisited` nodes before it was sure of the answer.
    public func advance(_ walk: inout Walk, n: Int, maxVisited: Int = .max) -> Bool {
        guard !walk.finished else { return true }
        let ancestor = walk.ancestor, up = walk.up, child = walk.child
        // An ancestor ranked species (sources that nest species) is a relative at distance `up`.
        if up > 0, isSpecies(ancestor) { walk.add(Candidate(node: ancestor, lca: ancestor, distance: up)) }
        if walk.count(below: up + 1) >= n {
            walk.finished = true
            return true
        }
        // Raw buffers and two reused frontier arrays: this loop runs for every node of every
        // species' walk, and slices of the tree's arrays would retain and release them each time.
        let stopped = tree.childStart.withUnsafeBufferPointer { start in
            tree.children.withUnsafeBufferPointer { children -> Bool in
                var frontier = Array(children[Int(start[Int(ancestor)])..<Int(start[Int(ancestor) + 1])])
                var next: [Int32] = []
                var level: Int32 = 1
                while !frontier.isEmpty {
                    let d = up + level
                    let closer = walk.count(below: d)
                    if closer >= n { break }
                    next.removeAll(keepingCapacity: true)
                    var takenHere = 0
                    for node in frontier where node != child {
                        walk.visited += 1
                        if walk.visited > maxVisited {
                            walk.visited -= 1
                            return true
                        }
                        if isSpecies(node) {
                            walk.add(Candidate(node: node, lca: ancestor, distance: d))
                            takenHere += 1
                            // Level 1 is in name order: enough names here settle every remaining slot.
                            if level == 1, takenHere >= n - closer { break }
                        }
                        for k in Int(start[Int(node)])..<Int(start[Int(node) + 1]) { next.append(children[k]) }
                    }
                    if level == 1, takenHere >= n - closer { break }
                    swap(&frontier, &next)
                    level += 1
                }
                return false
            }
        }
        if stopped { return false }
        walk.child = ancestor
        walk.ancestor = tree.parent[Int(ancestor)]
        walk.up += 1
        if walk.ancestor < 0 { walk.finished = true }
        return true
    }
}
