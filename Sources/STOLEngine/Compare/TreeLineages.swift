import STOLJSON
import STOLProtocol

/// The lineages of `nodes` in a tree; their JSON is written from the parent array without an
/// array per lineage.
struct TreeLineages: LineageList {
    let snapshot: LCASnapshot
    let nodes: [Int32]

    var lineages: [[Int64]] { nodes.map { snapshot.tree.ancestors(of: $0).reversed().map(snapshot.id(of:)) } }

    func writeJSON(into out: inout [UInt8]) {
        let parent = snapshot.tree.parent, ids = snapshot.ids
        // About 12 bytes an id; the mean Open Tree lineage has 34 of them.
        out.reserveCapacity(out.count + nodes.count * 400)
        var path: [Int32] = []
        path.reserveCapacity(256)
        out.append(UInt8(ascii: "["))
        for (i, node) in nodes.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            path.removeAll(keepingCapacity: true)
            var current = parent[Int(node)]
            while current >= 0 {
                path.append(current)
                current = parent[Int(current)]
            }
            out.append(UInt8(ascii: "["))
            for k in stride(from: path.count - 1, through: 0, by: -1) {
                Self.writeDecimal(ids[Int(path[k])], into: &out)
                if k > 0 { out.append(UInt8(ascii: ",")) }
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "]"))
    }

    /// Taxon ids are positive (below 2^53); anything else goes through `String`.
    static func writeDecimal(_ value: Int64, into out: inout [UInt8]) {
        guard value > 0 else {
            out.append(contentsOf: String(value).utf8)
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 19 digits
        var count = 0
        var rest = UInt64(value)
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            out.append(contentsOf: buffer[(24 - count)...])
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(lineages)
    }
}

extension CompareService {
    /// Most ids one `taxon/lineages` request may carry.
    public static let maxLineageIDs = 100_000

    /// The lineages of `ids` on the active database, from its in-memory tree once built (waiting
    /// for it if it is being built). An unknown id fails the whole batch with `taxonNotFound`.
    public func lineages(_ ids: [Int64]) async throws -> LineageBatch {
        let database = await databases.current()
        await lca.waitUntilBuilt(database)
        guard let snapshot = await lca.snapshot(for: database) else {
            // Too large for the in-memory tree: one recursive walk per id, in short reads.
            var lineages: [[Int64]] = []
            lineages.reserveCapacity(ids.count)
            for start in stride(from: 0, to: ids.count, by: 500) {
                try Task.checkCancellation()
                let chunk = ids[start..<min(start + 500, ids.count)]
                lineages += try await database.read { db in
                    try chunk.map { id -> [Int64] in
                        let chain = try Self.chain(db, id)
                        guard !chain.isEmpty else { throw TaxonomyError.taxonNotFound(id) }
                        return chain.dropFirst().reversed()
                    }
                }
            }
            return LineageBatch(lineages: lineages, source: "sql")
        }
        var nodes: [Int32] = []
        nodes.reserveCapacity(ids.count)
        for (i, id) in ids.enumerated() {
            if i & 0xFFFF == 0 { try Task.checkCancellation() }
            guard let node = snapshot.node(for: id) else { throw TaxonomyError.taxonNotFound(id) }
            guard Int(snapshot.tree.depth[Int(node)]) <= TaxonomyLimits.maxDepth else { throw database.reporting(DataFault.lineage(tooDeep: id)) }
            nodes.append(node)
        }
        return LineageBatch(lineages: TreeLineages(snapshot: snapshot, nodes: nodes), source: "tree")
    }
}
