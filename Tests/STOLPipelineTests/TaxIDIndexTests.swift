import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLPipeline

extension ImporterTests {
    /// `TaxIDIndex` answers as a dictionary would, for ids in its flat array and beyond it.
    @Suite struct TaxIDIndexLookups {
        @Test func answersAsADictionaryWould() {
            var generator = SplitMix64(seed: 24)
            var index = TaxIDIndex()
            var reference: [Int64: Int32] = [:]
            let big = TaxIDIndex.denseLimit
            for position in 0..<Int32(3000) {
                let id: Int64 = switch position % 4 {
                case 0: Int64.random(in: 1...5000, using: &generator)
                case 1: Int64.random(in: (big - 10)...(big + 10), using: &generator)
                case 2: Int64.random(in: 1...(1 << 52), using: &generator)
                default: Int64.random(in: -50...0, using: &generator)
                }
                guard reference[id] == nil else { continue }
                index.set(position, for: id)
                reference[id] = position
            }
            for id in Array(reference.keys) + [0, -1, 1, 4999, 5001, big - 1, big, big + 1, 1 << 52] {
                #expect(index[id] == reference[id], "id \(id)")
            }
        }
    }
}
