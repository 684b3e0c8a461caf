import Dispatch

extension Array {
    /// An array of `count` elements, `element(i)` at each index `i`: the two halves are made at
    /// once, one on the calling thread and one on another, and it returns once both are made.
    ///
    /// For a large array of large values whose making is mostly filling fresh memory (a page
    /// fault every few elements), which two cores do in about half the time. `element` is called
    /// from two threads at once, so it may only read what it captures.
    init(count: Int, inTwoHalves element: (Int) -> Element) {
        guard count > 1 else {
            self = (0..<count).map(element)
            return
        }
        self = [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            let start = UncheckedSendable(buffer.baseAddress!)
            let half = count / 2
            withoutActuallyEscaping(element) { element in
                let make = UncheckedSendable(element)
                DispatchQueue.concurrentPerform(iterations: 2) { part in
                    for i in part == 0 ? 0..<half : half..<count { (start.value + i).initialize(to: make.value(i)) }
                }
            }
            initialized = count
        }
    }
}
