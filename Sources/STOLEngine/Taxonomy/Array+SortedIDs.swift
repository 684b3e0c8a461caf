extension Array where Element == Int64 {
    /// The position of `id` in this array of taxon ids in ascending order (binary search), as a
    /// tree node; nil when it is not there.
    func position(ofSortedID id: Int64) -> Int32? {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if self[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        return lo < count && self[lo] == id ? Int32(lo) : nil
    }
}
