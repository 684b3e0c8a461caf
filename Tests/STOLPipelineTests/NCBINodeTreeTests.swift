import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

extension ImporterTests {
    /// `NCBITaxdumpImporter.NodeTree` resolves random node tables (roots, parents missing from
    /// the dump, cycles and what hangs from them) as a walk up from each node does.
    @Suite struct NCBINodeTree {
        @Test(arguments: [1, 2, 3, 4, 5, 6])
        func agreesWithAWalkUpFromEachNode(seed: UInt64) {
            var generator = SplitMix64(seed: seed)
            let n = Int.random(in: 1...400, using: &generator)
            let taxIDs = Array((1...Int64(4 * n)).shuffled(using: &generator).prefix(n))
            let parentIDs: [Int64] = (0..<n).map { i in
                switch Int.random(in: 0..<20, using: &generator) {
                case 0: taxIDs[i]  // a root
                case 1: Int64(4 * n + 1 + i)  // missing from the dump
                case 2, 3: taxIDs[Int.random(in: 0..<n, using: &generator)]  // anywhere: cycles
                default: i == 0 ? taxIDs[0] : taxIDs[Int.random(in: 0..<i, using: &generator)]  // above
                }
            }
            let levels = (0..<n).map { _ in Int8.random(in: -1...7, using: &generator) }
            var indexOf = TaxIDIndex()
            for (i, id) in taxIDs.enumerated() { indexOf.set(Int32(i), for: id) }
            let species = Int8(Rank.species.level)
            let tree = NCBITaxdumpImporter.NodeTree(taxIDs: taxIDs, parentIDs: parentIDs, levels: levels, indexOf: indexOf, speciesLevel: species)

            func up(_ i: Int) -> Int? { parentIDs[i] == taxIDs[i] ? nil : indexOf[parentIDs[i]].map(Int.init) }
            // Walk up from `i`: whether it reaches a cycle, and whether a species is above it.
            func walk(_ i: Int) -> (cycle: Bool, belowSpecies: Bool) {
                var seen: Set<Int> = [i], node = i, below = false
                while let parent = up(node) {
                    if seen.contains(parent) { return (true, below) }
                    seen.insert(parent)
                    if levels[parent] == species { below = true }
                    node = parent
                }
                return (false, below)
            }
            // Members of a cycle: walking up from them comes back to them.
            func member(_ i: Int) -> Bool {
                var node = i
                for _ in 0...n {
                    guard let parent = up(node) else { return false }
                    if parent == i { return true }
                    node = parent
                }
                return false
            }

            var position = [Int: Int]()
            for (k, node) in tree.topDown.enumerated() { position[Int(node)] = k }
            for i in 0..<n {
                let expected = walk(i)
                #expect(tree.onCycle[i] == expected.cycle, "node \(i)")
                let missing = parentIDs[i] != taxIDs[i] && indexOf[parentIDs[i]] == nil
                #expect(tree.missingParentKey[i] == (missing ? parentIDs[i] : 0), "node \(i)")
                if expected.cycle || up(i) == nil {
                    #expect(tree.parent[i] == -1 && position[i] == nil, "node \(i)")
                } else {
                    let parent = up(i)!
                    #expect(Int(tree.parent[i]) == parent, "node \(i)")
                    #expect(tree.belowSpecies[i] == expected.belowSpecies, "node \(i)")
                    #expect(position[i] != nil, "node \(i) is missing from topDown")
                    if let k = position[i], let parentAt = position[parent] { #expect(parentAt < k, "node \(i) before its parent") }
                }
            }
            #expect(tree.topDown.count == position.count)
            // One node of each cycle, each cycle once.
            let members = (0..<n).filter(member)
            func cycle(of i: Int) -> Set<Int> {
                var nodes: Set<Int> = [i], node = up(i)!
                while node != i { nodes.insert(node); node = up(node)! }
                return nodes
            }
            let found = tree.cycles.map { cycle(of: Int($0)) }
            #expect(tree.cycles.allSatisfy { members.contains(Int($0)) })
            #expect(Set(found).count == found.count)
            #expect(Set(found.flatMap { $0 }) == Set(members))
        }
    }
}
