import Foundation
import GRDB
import STOLEngine

extension DatabaseBuilder {
    /// One row of `top_n_relatives`, in node indexes: the `rank`-th nearest species of `species`.
    struct RelativeRow {
        var species: Int32
        var rank: Int32
        var relative: RelativesFinder.Candidate
    }

    /// Rows the finder hands the writer at a time.
    static let relativesBatchSize = 8_192

    /// Writes each species' `topN` nearest species into `top_n_relatives`, species in id order,
    /// and those of the other taxa `answered` marks (named subspecies and varieties); returns the number of rows.
    ///
    /// A thread of its own finds them, a few batches ahead of the writer: finding is about a third
    /// of the stage and writing the rest, and the two no longer wait for each other.
    func writeRelatives(
        _ db: Database, tree: TreeIndex, nameOrder: [Int32], isSpecies: [Bool], answered: [Bool], idOrder: [Int], ids: [Int64], species: Int
    ) throws -> Int {
        let batches = BoundedQueue<[RelativeRow]>(capacity: 8)
        let relatives = UncheckedSendable(NearestRelatives(finder: RelativesFinder(tree: tree) { isSpecies[Int($0)] }, nameOrder: nameOrder, n: topN))
        let batchSize = Self.relativesBatchSize
        let finder = Thread {
            var relatives = relatives.value
            var batch: [RelativeRow] = []
            batch.reserveCapacity(batchSize)
            for i in idOrder where answered[i] {
                for (rank, relative) in relatives.nearest(to: Int32(i)).enumerated() {
                    batch.append(RelativeRow(species: Int32(i), rank: Int32(rank + 1), relative: relative))
                }
                if batch.count >= batchSize {
                    guard batches.put(batch) else { return }
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty, !batches.put(batch) { return }
            batches.finish(nil)
        }
        finder.name = "relatives finder"
        finder.start()
        defer { batches.close() }

        var insert = try BatchedInsert(db, into: "top_n_relatives", columns: ["taxon_id", "relative_id", "rank_order", "lca_id", "lca_depth", "distance"])
        var rows = 0, done = 0
        var current: Int32 = -1
        let total = Double(max(species, 1))
        while let batch = try batches.take() {
            for row in batch {
                if row.species != current {
                    current = row.species
                    if done % 20_000 == 0 { progress("relatives", Double(done) / total) }
                    done += 1
                }
                let r = row.relative
                try insert.append(
                    .int(ids[Int(row.species)]), .int(ids[Int(r.node)]), .int(Int64(row.rank)), .int(ids[Int(r.lca)]),
                    .int(Int64(tree.depth[Int(r.lca)])), .int(Int64(r.distance)))
            }
            rows += batch.count
        }
        try insert.finish()
        return rows
    }
}
