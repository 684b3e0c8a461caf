import STOLProtocol
import STOLSupport
import STOLTestSupport
import Testing

@testable import STOLPipeline

extension ImporterTests {
    /// `Array(count:inTwoHalves:)` makes the array a map over the indexes makes, calling the
    /// element function once per index.
    @Suite struct ArrayInTwoHalves {
        final class Box: Sendable {
            let value: Int
            init(_ value: Int) { self.value = value }
        }

        @Test(arguments: [0, 1, 2, 3, 1_001])
        func madeAsAMapMakesIt(count: Int) {
            let calls = Locked([Int](repeating: 0, count: count))
            let made = [(Int, String, Box)](count: count) { i in
                calls.withLock { $0[i] += 1 }
                return (i, String(i), Box(i * 3))
            }
            #expect(made.count == count)
            #expect(made.map(\.0) == Array(0..<count))
            #expect(made.map(\.1) == (0..<count).map { String($0) })
            #expect(made.map(\.2.value) == (0..<count).map { $0 * 3 })
            #expect(calls.withLock { $0 }.allSatisfy { $0 == 1 })
        }
    }
}
