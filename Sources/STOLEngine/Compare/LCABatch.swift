import Foundation
import GRDB
import STOLProtocol

extension CompareService {
    /// Most pairs one request may carry: 100,000 pairs is a few MB of JSON either way.
    public static let maxLCAPairs = 100_000

    /// LCAs of `pairs` on the active database. Waits for its in-memory tree if it is being built
    /// (seconds, against minutes of SQL walks for a large batch).
    public func lcas(_ pairs: [(Int64, Int64)]) async throws -> LCABatch {
        let database = await databases.current()
        await lca.waitUntilBuilt(database)
        return try await lcas(pairs, in: database, using: await lca.snapshot(for: database))
    }

    /// LCAs of `pairs` in `database`; a nil `snapshot` answers from SQL. An unknown id fails the
    /// whole batch with `taxonNotFound`, naming the id.
    public func lcas(_ pairs: [(Int64, Int64)], in database: TaxonomyDatabase, using snapshot: LCASnapshot?) async throws -> LCABatch {
        var lcas: [Int64?] = []
        var distances: [Int?] = []
        lcas.reserveCapacity(pairs.count)
        distances.reserveCapacity(pairs.count)
        if let snapshot {
            for (i, (a, b)) in pairs.enumerated() {
                if i & 0xFFFF == 0 { try Task.checkCancellation() }
                guard let na = snapshot.node(for: a) else { throw TaxonomyError.taxonNotFound(a) }
                guard let nb = snapshot.node(for: b) else { throw TaxonomyError.taxonNotFound(b) }
                let index = snapshot.index
                if let common = index.lca(na, nb) {
                    lcas.append(snapshot.id(of: common))
                    distances.append(Int(index.depth(of: na) + index.depth(of: nb) - 2 * index.depth(of: common)))
                } else {
                    lcas.append(nil)
                    distances.append(nil)
                }
            }
            return LCABatch(lcas: lcas, distances: distances, source: "tree")
        }
        // Chunks keep each read short, so other requests interleave and a cancel is noticed.
        for start in stride(from: 0, to: pairs.count, by: 500) {
            try Task.checkCancellation()
            let chunk = Array(pairs[start..<min(start + 500, pairs.count)])
            let answers = try await database.read { db in
                var chains: [Int64: [Int64]] = [:]
                func chain(_ id: Int64) throws -> [Int64] {
                    if let known = chains[id] { return known }
                    let found = try Self.chain(db, id)
                    guard !found.isEmpty else { throw TaxonomyError.taxonNotFound(id) }
                    chains[id] = found
                    return found
                }
                return try chunk.map { a, b -> (Int64?, Int?) in
                    let chainA = try chain(a), chainB = try chain(b)
                    // Chains run from the taxon up to its root: align them from the root end.
                    var shared = 0
                    while shared < min(chainA.count, chainB.count),
                          chainA[chainA.count - 1 - shared] == chainB[chainB.count - 1 - shared] { shared += 1 }
                    guard shared > 0 else { return (nil, nil) }
                    return (chainA[chainA.count - shared], chainA.count + chainB.count - 2 * shared)
                }
            }
            for (common, distance) in answers {
                lcas.append(common)
                distances.append(distance)
            }
        }
        return LCABatch(lcas: lcas, distances: distances, source: "sql")
    }
}
