import STOLRPC

/// `taxon/lineages`: the lineages of many taxa at once, ids only, root first — the bulk form of
/// `taxon/ancestors` for scripts and pipelines (taxopy's `Taxon.taxid_lineage`, reversed).
public struct LineageBatch: Encodable, Sendable, Equatable, JSONWritable {
    /// For each id asked, its ancestors' ids from the root down to its parent (empty for a root).
    public var lineages: [[Int64]]
    /// `tree` when answered from the in-memory index, `sql` when from the database.
    public var source: String

    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            o.member("lineages", lineages)
            o.member("source", source)
        }
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
        var lineages: [[Int64]] = []
        lineages.reserveCapacity(ids.count)
        for (i, id) in ids.enumerated() {
            if i & 0xFFFF == 0 { try Task.checkCancellation() }
            guard let node = snapshot.node(for: id) else { throw TaxonomyError.taxonNotFound(id) }
            lineages.append(snapshot.tree.ancestors(of: node).reversed().map(snapshot.id(of:)))
        }
        return LineageBatch(lineages: lineages, source: "tree")
    }
}
