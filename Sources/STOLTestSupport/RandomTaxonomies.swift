import Foundation
import STOLEngine
import STOLPipeline
import STOLProtocol

/// Random forests of several shapes, as parent arrays with shuffled node numbers.
public enum CompareTrees {
    public enum Shape: String, CaseIterable, Sendable {
        /// each node under a uniformly chosen earlier node (shallow, bushy)
        case random
        /// one long chain with a few side branches (depth in the thousands)
        case deepChain
        /// one root with every other node its child
        case star
        /// many trees of small depth
        case forest
        /// a spine with a leaf hanging off every spine node
        case caterpillar
        /// each node under one of the last few nodes (deep and branching)
        case recent
    }

    public static func make(_ shape: Shape, count n: Int, rng: inout SplitMix64) -> [Int32] {
        var parent = [Int32](repeating: -1, count: n)
        for i in 1..<max(n, 1) {
            switch shape {
            case .random: parent[i] = Int32.random(in: 0..<Int32(i), using: &rng)
            case .deepChain: parent[i] = Int.random(in: 0..<20, using: &rng) == 0 ? Int32.random(in: 0..<Int32(i), using: &rng) : Int32(i - 1)
            case .star: parent[i] = 0
            case .forest:
                parent[i] = Int.random(in: 0..<40, using: &rng) == 0 ? -1 : Int32.random(in: Int32(max(0, i - 30))..<Int32(i), using: &rng)
            case .caterpillar: parent[i] = i % 2 == 1 ? Int32(i - 1) : Int32(max(0, i - 2))
            case .recent: parent[i] = Int32.random(in: Int32(max(0, i - 4))..<Int32(i), using: &rng)
            }
        }
        // Shuffle the numbering so that a parent may come after its children.
        var labels = Array(0..<Int32(n))
        labels.shuffle(using: &rng)
        var shuffled = [Int32](repeating: -1, count: n)
        for i in 0..<n { shuffled[Int(labels[i])] = parent[i] >= 0 ? labels[Int(parent[i])] : -1 }
        return shuffled
    }

    public static func depth(_ parent: [Int32], _ node: Int32) -> Int {
        var d = 0
        var c = parent[Int(node)]
        while c >= 0 { d += 1; c = parent[Int(c)] }
        return d
    }

    /// The LCA by walking up: nil for different trees.
    public static func naiveLCA(_ parent: [Int32], _ u: Int32, _ v: Int32) -> Int32? {
        var a = u, b = v
        var da = depth(parent, a), db = depth(parent, b)
        while da > db { a = parent[Int(a)]; da -= 1 }
        while db > da { b = parent[Int(b)]; db -= 1 }
        while a != b {
            a = parent[Int(a)]
            b = parent[Int(b)]
            if a < 0 || b < 0 { return nil }
        }
        return a
    }
}

/// A random taxonomy written with the real pipeline (TaxonomyAssembler + DatabaseBuilder).
public struct CompareFixture: Sendable {
    public let url: URL
    public let database: TaxonomyDatabase
    public let assembled: TaxonomyAssembler.Assembled
    public let topN: Int

    public static let traitPool = ["diet=carnivore", "diet=herbivore", "habitat=forest", "habitat=sea", "size=small", "size=large"]

    /// `count` taxa shaped like `shape`: most leaves and a few inner nodes are species, and names
    /// repeat so that ties are broken by id.
    public static func make(_ shape: CompareTrees.Shape, count: Int, seed: UInt64, topN: Int = 5) throws -> CompareFixture {
        var rng = SplitMix64(seed: seed)
        let parent = CompareTrees.make(shape, count: count, rng: &rng)
        var hasChildren = [Bool](repeating: false, count: count)
        for p in parent where p >= 0 { hasChildren[Int(p)] = true }
        let innerRanks: [Rank?] = [nil, .domain, .kingdom, .phylum, .class, .order, .family, .genus]
        var result = ImportResult()
        for i in 0..<count {
            let leaf = !hasChildren[i]
            let rank: Rank? = leaf
                ? (Int.random(in: 0..<5, using: &rng) == 0 ? nil : .species)
                : (Int.random(in: 0..<15, using: &rng) == 0 ? .species : innerRanks.randomElement(using: &rng)!)
            // Names from a small alphabet: many repeat.
            let name = "N" + String(Int.random(in: 0..<(count / 3 + 1), using: &rng), radix: 36)
            var taxon = SourceTaxon(key: "k\(i)", parentKey: parent[i] >= 0 ? "k\(parent[i])" : nil, rank: rank, scientificName: name)
            if Int.random(in: 0..<3, using: &rng) > 0 {
                for trait in traitPool where Bool.random(using: &rng) {
                    let parts = trait.split(separator: "=").map(String.init)
                    taxon.traits.append(SourceTrait(parts[0], parts[1]))
                }
            }
            if Int.random(in: 0..<4, using: &rng) == 0 { taxon.names.append(SourceName("common \(i)", lang: "en", type: .common)) }
            result.taxa.append(taxon)
        }
        let assembled = try TaxonomyAssembler(policy: .fail).assemble([result])
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stol-compare-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("random.sqlite")
        let metadata = DatabaseBuilder.Metadata(name: "Random \(shape)", version: "1", license: "CC0", attribution: "tests", buildDate: "2026-01-01", sourceFiles: [])
        _ = try DatabaseBuilder(topN: topN).build(assembled, metadata: metadata, to: url)
        return CompareFixture(url: url, database: try TaxonomyDatabase(url: url, source: .reference), assembled: assembled, topN: topN)
    }

    public func remove() { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }

    public var speciesIDs: [Int64] {
        assembled.taxa.indices.filter { assembled.taxa[$0].rank == .species }.map { assembled.ids[$0] }
    }

    /// Every species by brute force: distance by naive LCA, then name, then id.
    public func naiveRelatives(of index: Int, n: Int) -> [(id: Int64, distance: Int)] {
        let parent = assembled.parentIndex
        var all: [(id: Int64, name: String, distance: Int)] = []
        let depthSelf = CompareTrees.depth(parent, Int32(index))
        for j in assembled.taxa.indices where j != index && assembled.taxa[j].rank == .species {
            guard let l = CompareTrees.naiveLCA(parent, Int32(index), Int32(j)) else { continue }
            let d = depthSelf + CompareTrees.depth(parent, Int32(j)) - 2 * CompareTrees.depth(parent, l)
            all.append((assembled.ids[j], assembled.taxa[j].scientificName, d))
        }
        all.sort { x, y in x.distance != y.distance ? x.distance < y.distance : x.name != y.name ? x.name < y.name : x.id < y.id }
        return all.prefix(n).map { ($0.id, $0.distance) }
    }
}
