import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

extension ImporterTests {
    /// `NearestRelatives.nearest` keeps exactly what sorting every candidate and keeping `n` could keep.
    @Suite struct RelativesCut {
        @Test func keepsEveryCandidateUpToTheNthDistance() {
            var generator = SplitMix64(seed: 18)
            for round in 0..<500 {
                let count = Int.random(in: 0...60, using: &generator)
                let spread = Int32.random(in: 1...8, using: &generator)
                let candidates = (0..<count).map {
                    RelativesFinder.Candidate(node: Int32($0), lca: 0, distance: Int32.random(in: 1...spread, using: &generator))
                }
                let n = [1, 3, 10, 25][round % 4]
                let kept = NearestRelatives.nearest(candidates, n: n)
                let sorted = candidates.map(\.distance).sorted()
                let expected = count <= n ? candidates : candidates.filter { $0.distance <= sorted[n - 1] }
                #expect(kept == expected, "n \(n), distances \(candidates.map(\.distance))")
            }
        }
    }
}
