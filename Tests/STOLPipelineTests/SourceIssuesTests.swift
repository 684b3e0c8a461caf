import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLPipeline

extension ImporterTests {
    /// Issues are kept in full up to a limit and counted by kind beyond it, so that millions of
    /// bad rows cost counts, not memory.
    @Suite struct SourceIssueCounting {
        @Test func keptUpToTheLimitCountedBeyond() {
            var issues = SourceIssues()
            for line in 1...2_500 {
                issues.append(SourceIssue("duplicate id 7; row skipped", at: SourceLocation(file: "t", line: line), kind: .duplicateID))
            }
            issues.append(SourceIssue("a loop, repaired", at: nil, kind: .synonymChainBroken, rows: 0))
            #expect(issues.count == SourceIssues.keepLimit)
            #expect(issues.kept.last?.location?.line == SourceIssues.keepLimit)
            #expect(issues.total == 2_501)
            #expect(issues.rowsSkipped == 2_500)
            #expect(issues.summary == ["2500 duplicate ids (2500 rows skipped)", "1 synonym chains that never reach an accepted name"])

            var merged = SourceIssues([SourceIssue("first", at: nil)])
            merged += issues
            #expect(merged.count == SourceIssues.keepLimit)
            #expect(merged.first?.message == "first")
            #expect(merged.total == 2_502)
            #expect(merged.byKind[.duplicateID]?.issues == 2_500)
            #expect(merged.byKind[.badRow]?.rows == 1)
        }
    }
}
