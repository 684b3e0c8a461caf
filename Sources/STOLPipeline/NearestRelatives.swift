import STOLEngine

/// Each species' `n` nearest species, by distance then name order, as `top_n_relatives` stores them.
///
/// The species of one parent (a genus) share everything the walk finds above it: from the
/// grandparent up, `RelativesFinder` depends only on the parent skipped and how many candidates
/// were found below, so that part is walked once per parent and kept as its own `n` nearest (no
/// other candidate of it can reach the top `n`). NCBI's small genera in wide families otherwise
/// walk the whole family once per species.
struct NearestRelatives {
    /// What the walk from a parent's parent upward found, cut to its `n` nearest.
    private struct Above {
        /// Candidates found below that point (all of them no farther than the parent's parent).
        var foundBelow: Int
        var nearest: [RelativesFinder.Candidate]
    }

    let finder: RelativesFinder
    /// Position of each node in the global name order: breaks ties of distance.
    let nameOrder: [Int32]
    let n: Int
    private var above: [Int32: Above] = [:]

    init(finder: RelativesFinder, nameOrder: [Int32], n: Int) {
        self.finder = finder
        self.nameOrder = nameOrder
        self.n = n
    }

    /// The `n` nearest species of `species`, nearest first, ties in name order.
    mutating func nearest(to species: Int32) -> [RelativesFinder.Candidate] {
        var walk = finder.start(at: species)
        // Its own subtree, then its parent's.
        for _ in 0..<2 where !walk.finished { _ = finder.advance(&walk, n: n) }
        // Shared only when every candidate so far is nearer than anything above: then the rest
        // of the walk sees just their number.
        guard !walk.finished, walk.farthest <= walk.up else {
            while !walk.finished { _ = finder.advance(&walk, n: n) }
            return sorted(walk.found)
        }
        let parent = walk.child, below = walk.found.count
        if let shared = above[parent], shared.foundBelow == below { return sorted(walk.found + shared.nearest) }
        while !walk.finished { _ = finder.advance(&walk, n: n) }
        let found = walk.found
        let rest = sorted(Array(found[below...]))
        above[parent] = Above(foundBelow: below, nearest: rest)
        return sorted(Array(found[..<below]) + rest)
    }

    /// The `n` nearest of `candidates`, nearest first, ties in name order.
    private func sorted(_ candidates: [RelativesFinder.Candidate]) -> [RelativesFinder.Candidate] {
        var kept = Self.nearest(candidates, n: n)
        kept.sort { $0.distance != $1.distance ? $0.distance < $1.distance : nameOrder[Int($0.node)] < nameOrder[Int($1.node)] }
        return Array(kept.prefix(n))
    }

    /// The candidates no farther than the `n`-th nearest: the only ones that can be among the `n`
    /// nearest once ties are broken, so that sorting a wide genus or family sorts only those.
    static func nearest(_ candidates: [RelativesFinder.Candidate], n: Int) -> [RelativesFinder.Candidate] {
        guard candidates.count > n, n > 0 else { return candidates }
        var distances = candidates.map(\.distance)
        var low = 0, high = distances.count - 1, k = n - 1
        // Quickselect of the k-th smallest distance.
        while low < high {
            let pivot = distances[(low + high) / 2]
            var i = low, j = high
            while i <= j {
                while distances[i] < pivot { i += 1 }
                while distances[j] > pivot { j -= 1 }
                if i <= j { distances.swapAt(i, j); i += 1; j -= 1 }
            }
            if k <= j { high = j } else if k >= i { low = i } else { break }
        }
        let cut = distances[k]
        return candidates.filter { $0.distance <= cut }
    }
}
