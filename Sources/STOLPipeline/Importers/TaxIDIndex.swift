/// Node positions by tax id: a flat array for ids below `denseLimit` (NCBI's reach a few
/// million), a dictionary for the others. The NCBI reader looks a tax id up about ten million
/// times, and hashing each one was a third of its reading time.
struct TaxIDIndex {
    /// Ids from 0 up to this are kept in the flat array (at most 64 MB of it).
    static let denseLimit: Int64 = 1 << 24
    /// Position + 1 by id; 0 where no node has that id.
    private var dense: [Int32] = []
    private var sparse: [Int64: Int32] = [:]

    /// The position of the node with tax id `id`, if there is one.
    subscript(id: Int64) -> Int32? {
        guard id >= 0, id < Self.denseLimit else { return sparse[id] }
        guard id < Int64(dense.count) else { return nil }
        let slot = dense[Int(id)]
        return slot == 0 ? nil : slot - 1
    }

    /// Records that the node with tax id `id` is at `position`.
    mutating func set(_ position: Int32, for id: Int64) {
        guard id >= 0, id < Self.denseLimit else {
            sparse[id] = position
            return
        }
        if id >= Int64(dense.count) {
            // Doubling, so that a dump in any id order grows the array a few dozen times at most.
            let size = min(max(Int(id) + 1, dense.count * 2), Int(Self.denseLimit))
            dense += [Int32](repeating: 0, count: size - dense.count)
        }
        dense[Int(id)] = position + 1
    }
}
