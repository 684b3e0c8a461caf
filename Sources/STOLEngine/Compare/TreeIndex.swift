/// A forest held in flat 32-bit arrays: parents, depths and children in compressed (CSR) form.
///
/// Nodes are dense indices `0..<count`; callers map them to taxon ids. No per-node objects, so the
/// 2.4-million-node Open Tree fits in a few tens of megabytes.
public struct TreeIndex: Sendable {
    /// Parent index, or -1 for a root.
    public let parent: [Int32]
    /// Distance from the root (roots are 0).
    public let depth: [Int32]
    /// Children of node `i` are `children[childStart[i]..<childStart[i + 1]]`, in the given order.
    public let childStart: [Int32]
    public let children: [Int32]
    /// Roots in the given order.
    public let roots: [Int32]

    public var count: Int { parent.count }

    /// Builds the index from parent links. `order` ranks siblings (and roots): the smaller first.
    /// Fails with the first node found on a cycle.
    public init(parent: [Int32], order: (Int32, Int32) -> Bool) throws(TreeError) {
        let n = parent.count
        var counts = [Int32](repeating: 0, count: n + 1)
        var roots: [Int32] = []
        for i in 0..<n {
            let p = parent[i]
            if p < 0 { roots.append(Int32(i)) } else { counts[Int(p) + 1] += 1 }
        }
        for i in 0..<n { counts[i + 1] += counts[i] }
        var fill = counts
        var children = [Int32](repeating: 0, count: n - roots.count)
        for i in 0..<n where parent[i] >= 0 {
            let p = Int(parent[i])
            children[Int(fill[p])] = Int32(i)
            fill[p] += 1
        }
        for i in 0..<n where counts[i + 1] - counts[i] > 1 {
            children[Int(counts[i])..<Int(counts[i + 1])].sort(by: order)
        }
        roots.sort(by: order)

        // Depths by an explicit-stack walk from the roots; a node never reached sits on a cycle.
        var depth = [Int32](repeating: -1, count: n)
        var stack: [Int32] = []
        stack.reserveCapacity(1024)
        for root in roots {
            depth[Int(root)] = 0
            stack.append(root)
            while let node = stack.popLast() {
                let d = depth[Int(node)] + 1
                for c in Int(counts[Int(node)])..<Int(counts[Int(node) + 1]) {
                    let child = children[c]
                    depth[Int(child)] = d
                    stack.append(child)
                }
            }
        }
        if let unreached = depth.firstIndex(of: -1) { throw .cycle(node: Int32(unreached)) }

        self.parent = parent
        self.depth = depth
        self.childStart = counts
        self.children = children
        self.roots = roots
    }

    /// The children of `node`.
    public func children(of node: Int32) -> ArraySlice<Int32> {
        children[Int(childStart[Int(node)])..<Int(childStart[Int(node) + 1])]
    }

    /// Nodes in depth-first preorder (roots and siblings in index order).
    public func preorder() -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(count)
        var stack: [Int32] = roots.reversed()
        while let node = stack.popLast() {
            out.append(node)
            let kids = children(of: node)
            for child in kids.reversed() { stack.append(child) }
        }
        return out
    }

    /// Calls `visit(node, depth)` for each step of the Euler tour (2·size − 1 entries per tree).
    public func eulerTour(_ visit: (Int32, Int32) throws -> Void) rethrows {
        // Each frame: node and the position of the next child to visit.
        var stack: [(node: Int32, next: Int32)] = []
        for root in roots {
            try visit(root, 0)
            stack.append((root, childStart[Int(root)]))
            while let top = stack.last {
                let end = childStart[Int(top.node) + 1]
                if top.next < end {
                    let child = children[Int(top.next)]
                    stack[stack.count - 1].next += 1
                    try visit(child, depth[Int(child)])
                    stack.append((child, childStart[Int(child)]))
                } else {
                    stack.removeLast()
                    if let up = stack.last { try visit(up.node, depth[Int(up.node)]) }
                }
            }
        }
    }

    /// The ancestors of `node` from its parent up to its root.
    public func ancestors(of node: Int32) -> [Int32] {
        var out: [Int32] = []
        var current = parent[Int(node)]
        while current >= 0 {
            out.append(current)
            current = parent[Int(current)]
        }
        return out
    }

    /// Approximate bytes held by the arrays.
    public var memoryBytes: Int { (parent.count + depth.count + childStart.count + children.count + roots.count) * 4 }
}

/// Why a set of parent links is not a forest.
public enum TreeError: Error, Sendable, Equatable {
    case cycle(node: Int32)
}
