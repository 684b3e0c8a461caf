import STOLJSON

/// `taxon/lineages`: the lineages of many taxa at once, ids only, root first — the bulk form of
/// `taxon/ancestors` for scripts and pipelines (taxopy's `Taxon.taxid_lineage`, reversed).
///
/// From the in-memory tree it keeps only the nodes asked for and writes each lineage's JSON
/// straight from the tree's parent array: 100,000 lineages are about 3.4 million ids on Open Tree,
/// and an array of arrays of them cost more than the rest of the answer.
public struct LineageBatch: Encodable, Sendable, Equatable, JSONWritable {
    /// Where the lineages come from.
    enum Storage: Sendable {
        /// Read from SQL: each lineage's ids, root first.
        case ids([[Int64]])
        /// The nodes asked for, in order, in the database's in-memory tree.
        case tree(TreeLineages)
    }

    let storage: Storage
    /// `tree` when answered from the in-memory index, `sql` when from the database.
    public let source: String

    init(lineages: [[Int64]]) {
        storage = .ids(lineages)
        source = "sql"
    }

    init(tree: LCASnapshot, nodes: [Int32]) {
        storage = .tree(TreeLineages(snapshot: tree, nodes: nodes))
        source = "tree"
    }

    /// For each id asked, its ancestors' ids from the root down to its parent (empty for a root).
    public var lineages: [[Int64]] {
        switch storage {
        case .ids(let lineages): lineages
        case .tree(let fromTree): fromTree.lineages
        }
    }

    public static func == (x: LineageBatch, y: LineageBatch) -> Bool { x.source == y.source && x.lineages == y.lineages }

    enum CodingKeys: String, CodingKey { case lineages, source }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(lineages, forKey: .lineages)
        try c.encode(source, forKey: .source)
    }

    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            switch storage {
            case .ids(let lineages): o.member("lineages", lineages)
            case .tree(let fromTree): o.member("lineages", fromTree)
            }
            o.member("source", source)
        }
    }
}

/// The lineages of `nodes` in a tree; their JSON is written from the parent array without an
/// array per lineage.
struct TreeLineages: Sendable, JSONWritable {
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
            return LineageBatch(lineages: lineages)
        }
        var nodes: [Int32] = []
        nodes.reserveCapacity(ids.count)
        for (i, id) in ids.enumerated() {
            if i & 0xFFFF == 0 { try Task.checkCancellation() }
            guard let node = snapshot.node(for: id) else { throw TaxonomyError.taxonNotFound(id) }
            nodes.append(node)
        }
        return LineageBatch(tree: snapshot, nodes: nodes)
    }
}
