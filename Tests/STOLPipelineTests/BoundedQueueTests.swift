import Foundation
import STOLProtocol
import STOLSupport
import STOLTestSupport
import Testing

@testable import STOLPipeline

extension ImporterTests {
    /// `BoundedQueue`, which hands zip chunks and relatives from a producer thread to the builder.
    @Suite struct BoundedQueueHandOff {
        struct Broken: Error, Equatable {}

        /// Every element arrives once and in order, and the producer never holds more than the
        /// capacity in the queue.
        @Test func deliversInOrderWithinCapacity() throws {
            let queue = BoundedQueue<Int>(capacity: 3)
            let taken = Locked(0)
            let highest = Locked(0)
            let producer = Thread {
                for i in 0..<2_000 {
                    _ = queue.put(i)
                    // put returns once i is queued, so at most capacity elements wait beyond what was taken.
                    let waiting = i + 1 - taken.withLock { $0 }
                    highest.withLock { $0 = max($0, waiting) }
                }
                queue.finish(nil)
            }
            producer.start()
            var received: [Int] = []
            while let i = try queue.take() {
                received.append(i)
                taken.withLock { $0 += 1 }
            }
            #expect(received == Array(0..<2_000))
            #expect(highest.withLock { $0 } <= 3 + 1)
        }

        /// A producer's error comes after the elements it put before failing.
        @Test func errorAfterElements() throws {
            let queue = BoundedQueue<String>(capacity: 4)
            #expect(queue.put("a") && queue.put("b"))
            queue.finish(Broken())
            #expect(try queue.take() == "a")
            #expect(try queue.take() == "b")
            #expect(throws: Broken()) { try queue.take() }
        }

        /// A consumer that closes the queue releases a producer waiting for room, and every later put fails.
        @Test func closeReleasesProducer() throws {
            let queue = BoundedQueue<Int>(capacity: 1)
            let refused = Locked<Int?>(nil)
            let done = DispatchSemaphore(value: 0)
            let producer = Thread {
                var i = 0
                while queue.put(i) { i += 1 }
                refused.withLock { $0 = i }
                done.signal()
            }
            producer.start()
            #expect(try queue.take() == 0)
            queue.close()
            #expect(done.wait(timeout: .now() + 30) == .success)
            let stoppedAt = try #require(refused.withLock { $0 })
            #expect(stoppedAt >= 1 && stoppedAt <= 3)
            #expect(!queue.put(99))
        }
    }
}
