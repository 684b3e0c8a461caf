import Foundation

/// A bounded queue from one producer thread to one consumer: the producer waits while it is
/// full, the consumer while it is empty. Either side may stop early: the producer with an error
/// the consumer receives after the elements before it, the consumer by closing the queue.
final class BoundedQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var elements: [Element] = []
    private var finished = false
    private var closed = false
    private var failure: (any Error)?
    private let capacity: Int

    /// A queue that holds at most `capacity` elements.
    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// Waits for room; false when the consumer has gone.
    func put(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while elements.count >= capacity, !closed { condition.wait() }
        guard !closed else { return false }
        elements.append(element)
        condition.broadcast()
        return true
    }

    /// The producer is done, with or without an error.
    func finish(_ error: (any Error)?) {
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// The next element; nil at the end; the producer's error once its elements are taken.
    func take() throws -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while elements.isEmpty, !finished { condition.wait() }
        if !elements.isEmpty {
            condition.broadcast()
            return elements.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// The consumer has gone: the producer's next `put` returns false.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
