/// Constant-time lowest common ancestor queries over a `TreeIndex`.
///
/// Uses the n-sized preorder variant of the Euler-tour reduction: for nodes u ≠ v with
/// pre(u) < pre(v), the LCA is the parent of the shallowest node in preorder (pre(u), pre(v)].
/// Range minima use 32-wide blocks with stack bitmasks inside a block and a sparse table across
/// blocks, so a query is a few array reads and bit operations, and memory stays near 16 bytes a node.
/// When the nodes are already numbered in preorder, the position maps are the identity and are not
/// stored, which leaves about 4 bytes a node.
public struct LCAIndex: Sendable {
    private static let blockBits = 5
    private static let blockSize = 1 << blockBits

    private let parent: [Int32]
    private let depth: [Int32]
    /// position of each node in preorder; empty when nodes are numbered in preorder
    private let position: [Int32]
    /// node at each preorder position; empty when nodes are numbered in preorder
    private let order: [Int32]
    /// depth at each preorder position (the array the range minimum runs over); shares `depth`'s
    /// storage when nodes are numbered in preorder
    private let orderDepth: [Int32]
    private let identity: Bool
    /// per position: bitmask of the in-block monotonic stack
    private let masks: [UInt32]
    /// sparse[k][b]: position of the minimum over blocks b ..< b + 2^k
    private let sparse: [[Int32]]

    /// Builds the index; O(n) apart from the small sparse table over blocks.
    public init(tree: TreeIndex) {
        let order = tree.preorder()
        let n = order.count
        var identity = true
        for i in 0..<n where order[i] != Int32(i) {
            identity = false
            break
        }
        var position: [Int32] = []
        var orderDepth = tree.depth
        if !identity {
            position = [Int32](repeating: 0, count: n)
            for (i, node) in order.enumerated() {
                position[Int(node)] = Int32(i)
                orderDepth[i] = tree.depth[Int(node)]
            }
        }
        var masks = [UInt32](repeating: 0, count: n)
        let blockCount = (n + Self.blockSize - 1) / Self.blockSize
        var blockMin = [Int32](repeating: 0, count: blockCount)
        var stack: [Int] = []
        stack.reserveCapacity(Self.blockSize)
        for block in 0..<blockCount {
            let start = block * Self.blockSize
            let end = min(n, start + Self.blockSize)
            stack.removeAll(keepingCapacity: true)
            var mask: UInt32 = 0
            var best = start
            for i in start..<end {
                while let top = stack.last, orderDepth[top] > orderDepth[i] {
                    mask &= ~(1 << UInt32(top - start))
                    stack.removeLast()
                }
                stack.append(i)
                mask |= 1 << UInt32(i - start)
                masks[i] = mask
                if orderDepth[i] < orderDepth[best] { best = i }
            }
            blockMin[block] = Int32(best)
        }
        var sparse: [[Int32]] = [blockMin]
        var width = 1
        while width * 2 <= blockCount {
            let previous = sparse[sparse.count - 1]
            var level = [Int32](repeating: 0, count: blockCount - width * 2 + 1)
            for b in 0..<level.count {
                let x = previous[b], y = previous[b + width]
                level[b] = orderDepth[Int(y)] < orderDepth[Int(x)] ? y : x
            }
            sparse.append(level)
            width *= 2
        }
        self.parent = tree.parent
        self.depth = tree.depth
        self.position = position
        self.order = identity ? [] : order
        self.orderDepth = orderDepth
        self.identity = identity
        self.masks = masks
        self.sparse = sparse
    }

    /// The lowest common ancestor of two nodes, or nil when they are in different trees.
    public func lca(_ u: Int32, _ v: Int32) -> Int32? {
        if u == v { return u }
        var l = identity ? Int(u) : Int(position[Int(u)])
        var r = identity ? Int(v) : Int(position[Int(v)])
        if l > r { swap(&l, &r) }
        let m = minPosition(l + 1, r)
        let shallowest = identity ? Int32(m) : order[m]
        let p = parent[Int(shallowest)]
        return p >= 0 ? p : nil
    }

    /// Depth of a node (roots are 0).
    public func depth(of node: Int32) -> Int32 { depth[Int(node)] }

    /// Tree distance: depth(u) + depth(v) − 2·depth(lca), or nil for different trees.
    public func distance(_ u: Int32, _ v: Int32) -> Int32? {
        guard let a = lca(u, v) else { return nil }
        return depth[Int(u)] + depth[Int(v)] - 2 * depth[Int(a)]
    }

    /// Approximate bytes held by the index's own arrays (the parent and depth arrays are shared).
    public var memoryBytes: Int {
        (position.count + order.count + (identity ? 0 : orderDepth.count) + masks.count) * 4 + sparse.reduce(0) { $0 + $1.count * 4 }
    }

    private func minPosition(_ l: Int, _ r: Int) -> Int {
        let bl = l >> Self.blockBits, br = r >> Self.blockBits
        if bl == br { return inBlockMin(l, r) }
        var best = inBlockMin(l, (bl + 1) * Self.blockSize - 1)
        let right = inBlockMin(br * Self.blockSize, r)
        if orderDepth[right] < orderDepth[best] { best = right }
        if bl + 1 <= br - 1 {
            let lo = bl + 1, hi = br - 1
            let k = Int.bitWidth - 1 - (hi - lo + 1).leadingZeroBitCount
            let x = Int(sparse[k][lo]), y = Int(sparse[k][hi - (1 << k) + 1])
            let middle = orderDepth[y] < orderDepth[x] ? y : x
            if orderDepth[middle] < orderDepth[best] { best = middle }
        }
        return best
    }

    private func inBlockMin(_ l: Int, _ r: Int) -> Int {
        let start = l & ~(Self.blockSize - 1)
        let mask = masks[r] & (UInt32.max << UInt32(l - start))
        return start + mask.trailingZeroBitCount
    }
}
