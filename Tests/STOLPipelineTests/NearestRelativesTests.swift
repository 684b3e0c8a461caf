import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

extension ImporterTests {
    /// `NearestRelatives`, which shares the walk above a genus among its species, gives every
    /// species exactly the `n` nearest species a brute-force look at the whole tree gives.
    @Suite struct NearestRelativesSharing {
        /// Every other species of `s`'s tree, by (distance, name order), with their LCA.
        static func bruteForce(_ s: Int32, parent: [Int32], isSpecies: [Bool], nameOrder: [Int32]) -> [RelativesFinder.Candidate] {
            var ancestorsOfS: [Int32: Int32] = [:]  // node -> steps from s
            var steps: Int32 = 0
            var node = s
            while node >= 0 { ancestorsOfS[node] = steps; steps += 1; node = parent[Int(node)] }
            var all: [RelativesFinder.Candidate] = []
            for x in 0..<Int32(parent.count) where x != s && isSpecies[Int(x)] {
                var up: Int32 = 0
                var a = x
                while a >= 0, ancestorsOfS[a] == nil { up += 1; a = parent[Int(a)] }
                guard a >= 0, let down = ancestorsOfS[a] else { continue }
                all.append(RelativesFinder.Candidate(node: x, lca: a, distance: up + down))
            }
            all.sort { $0.distance != $1.distance ? $0.distance < $1.distance : nameOrder[Int($0.node)] < nameOrder[Int($1.node)] }
            return all
        }

        /// Families of small genera (NCBI's shape), with a few species nested under species and
        /// species hanging straight from a family.
        static func flatFamilies(count: Int, rng: inout SplitMix64) -> [Int32] {
            var parent: [Int32] = [-1]
            var families: [Int32] = []
            var genera: [Int32] = []
            while parent.count < count {
                let i = Int32(parent.count)
                switch Int.random(in: 0..<20, using: &rng) {
                case 0: parent.append(0); families.append(i)
                case 1...4 where !families.isEmpty: parent.append(families.randomElement(using: &rng)!); genera.append(i)
                default:
                    if genera.isEmpty || Int.random(in: 0..<15, using: &rng) == 0 {
                        parent.append(Int32.random(in: 0..<i, using: &rng))
                    } else {
                        parent.append(genera.randomElement(using: &rng)!)
                    }
                }
            }
            return parent
        }

        @Test(arguments: CompareTrees.Shape.allCases.map(\.rawValue) + ["flatFamilies"])
        func equalsBruteForce(_ shape: String) throws {
            var rng = SplitMix64(seed: 1818)
            for round in 0..<6 {
                let count = [40, 150, 400][round % 3]
                let parent = CompareTrees.Shape(rawValue: shape).map { CompareTrees.make($0, count: count, rng: &rng) }
                    ?? Self.flatFamilies(count: count, rng: &rng)
                let speciesShare = [0.5, 0.8, 0.95][round % 3]
                let isSpecies = parent.indices.map { _ in Double.random(in: 0..<1, using: &rng) < speciesShare }
                var byName = Array(0..<Int32(count))
                byName.shuffle(using: &rng)
                var nameOrder = [Int32](repeating: 0, count: count)
                for (position, node) in byName.enumerated() { nameOrder[Int(node)] = Int32(position) }
                let tree = try TreeIndex(parent: parent) { nameOrder[Int($0)] < nameOrder[Int($1)] }
                let finder = RelativesFinder(tree: tree) { isSpecies[Int($0)] }
                var expected: [Int32: [RelativesFinder.Candidate]] = [:]
                for s in 0..<Int32(count) where isSpecies[Int(s)] {
                    expected[s] = Self.bruteForce(s, parent: parent, isSpecies: isSpecies, nameOrder: nameOrder)
                }
                for n in [1, 3, 10] {
                    var relatives = NearestRelatives(finder: finder, nameOrder: nameOrder, n: n)
                    // Every species twice, in random order, so that shared walks are both made and reused.
                    var queries = (0..<Int32(count)).filter { isSpecies[Int($0)] }
                    queries += queries
                    queries.shuffle(using: &rng)
                    for s in queries {
                        #expect(relatives.nearest(to: s) == Array(expected[s]!.prefix(n)), "\(shape) round \(round) n \(n) species \(s)")
                    }
                }
            }
        }
    }
}
