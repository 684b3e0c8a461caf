import Foundation
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine

/// TreeIndex + LCAIndex against a naive parent walk, on seeded random trees of many shapes.
@Suite struct CompareLCAPropertyTests {
    static let cases: [(CompareTrees.Shape, Int, UInt64)] = CompareTrees.Shape.allCases.flatMap { shape in
        [(shape, 1, 1), (shape, 33, 2), (shape, 3000, 3), (shape, 5000, 4)]
    }

    /// Random pairs, plus pairs where one node is an ancestor of the other and u == v.
    static func pairs(_ parent: [Int32], count: Int, rng: inout SplitMix64) -> [(Int32, Int32)] {
        let n = Int32(parent.count)
        var out: [(Int32, Int32)] = []
        for k in 0..<count {
            let u = Int32.random(in: 0..<n, using: &rng)
            switch k % 4 {
            case 0: out.append((u, u))
            case 1:
                var ancestors: [Int32] = []
                var c = parent[Int(u)]
                while c >= 0 { ancestors.append(c); c = parent[Int(c)] }
                out.append((ancestors.randomElement(using: &rng) ?? u, u))
            default: out.append((u, Int32.random(in: 0..<n, using: &rng)))
            }
        }
        return out
    }

    @Test(arguments: cases.indices)
    func lcaEqualsANaiveWalk(_ i: Int) throws {
        let (shape, n, seed) = Self.cases[i]
        var rng = SplitMix64(seed: seed &* 7919 &+ UInt64(i))
        let parent = CompareTrees.make(shape, count: n, rng: &rng)
        let tree = try TreeIndex(parent: parent, order: <)
        let index = LCAIndex(tree: tree)
        for (u, v) in Self.pairs(parent, count: 2000, rng: &rng) {
            let expected = CompareTrees.naiveLCA(parent, u, v)
            #expect(index.lca(u, v) == expected, "\(shape) n=\(n) lca(\(u), \(v))")
            if let expected {
                let d = CompareTrees.depth(parent, u) + CompareTrees.depth(parent, v) - 2 * CompareTrees.depth(parent, expected)
                #expect(index.distance(u, v) == Int32(d))
            } else {
                #expect(index.distance(u, v) == nil)
            }
        }
    }

    /// Nodes numbered in preorder take the lean path (no position maps); answers must not change.
    @Test(arguments: cases.indices)
    func preorderNumberingGivesTheSameAnswersWithLessMemory(_ i: Int) throws {
        let (shape, n, seed) = Self.cases[i]
        var rng = SplitMix64(seed: seed &+ 1000 &+ UInt64(i))
        let parent = CompareTrees.make(shape, count: n, rng: &rng)
        let shuffled = try TreeIndex(parent: parent, order: <)
        let order = shuffled.preorder()
        var newIndex = [Int32](repeating: 0, count: n)
        for (p, node) in order.enumerated() { newIndex[Int(node)] = Int32(p) }
        var renumbered = [Int32](repeating: -1, count: n)
        for old in 0..<n where parent[old] >= 0 { renumbered[Int(newIndex[old])] = newIndex[Int(parent[old])] }
        let lean = LCAIndex(tree: try TreeIndex(parent: renumbered, order: <))
        let full = LCAIndex(tree: shuffled)
        if n > 1 { #expect(lean.memoryBytes < full.memoryBytes) }
        for (u, v) in Self.pairs(parent, count: 1000, rng: &rng) {
            #expect(lean.lca(newIndex[Int(u)], newIndex[Int(v)]) == full.lca(u, v).map { newIndex[Int($0)] })
        }
    }

    @Test(arguments: cases.indices)
    func distanceIsSymmetricAndObeysTheTriangleInequality(_ i: Int) throws {
        let (shape, n, seed) = Self.cases[i]
        var rng = SplitMix64(seed: seed &+ 2000 &+ UInt64(i))
        let parent = CompareTrees.make(shape, count: n, rng: &rng)
        let index = LCAIndex(tree: try TreeIndex(parent: parent, order: <))
        let count = Int32(n)
        for _ in 0..<2000 {
            let u = Int32.random(in: 0..<count, using: &rng)
            let v = Int32.random(in: 0..<count, using: &rng)
            let w = Int32.random(in: 0..<count, using: &rng)
            #expect(index.distance(u, v) == index.distance(v, u))
            #expect(index.distance(u, u) == 0)
            if let uv = index.distance(u, v), let vw = index.distance(v, w) {
                let uw = try #require(index.distance(u, w), "same tree")
                #expect(uw <= uv + vw, "\(shape) d(\(u),\(w)) = \(uw) > \(uv) + \(vw)")
            }
        }
    }

    @Test func eulerTourHasTwoEntriesPerEdgePlusOnePerTree() throws {
        var rng = SplitMix64(seed: 99)
        let parent = CompareTrees.make(.forest, count: 2000, rng: &rng)
        let tree = try TreeIndex(parent: parent, order: <)
        var entries = 0
        tree.eulerTour { _, _ in entries += 1 }
        #expect(entries == 2 * (parent.count - tree.roots.count) + tree.roots.count)
    }
}
