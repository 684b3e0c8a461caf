import STOLEngine

/// Whether a build kept enough of its sources to be written. A build that keeps no accepted
/// taxon is always refused; so, unless a partial build is accepted knowingly (`allowPartial`),
/// is one where a source yields no taxon or loses more than `maxSkippedShare` of its rows. A
/// pipeline that trusts the exit code then never ships an empty or gutted encyclopedia.
public struct BuildCompleteness: Sendable {
    /// The largest share of a source's rows that may be skipped (bad rows, and taxa dropped for a
    /// missing parent or a cycle, with what hangs below them): one in five.
    public static let maxSkippedShare = 0.2

    /// Accept a build where a source yields nothing or loses more than `maxSkippedShare`.
    public var allowPartial: Bool

    public init(allowPartial: Bool = false) {
        self.allowPartial = allowPartial
    }

    /// One line per source: `checklist_980.zip: 389 rows read, 33 skipped (8.5 %), 506 taxa kept`.
    public static func report(_ assembled: TaxonomyAssembler.Assembled, labels: [String]) -> [String] {
        zip(labels, assembled.sources).map { label, tally in
            "\(label): \(rows(tally.rowsRead)) read, \(tally.rowsSkipped) skipped (\(percent(tally.skippedShare))), \(tally.taxaKept) taxa kept"
        }
    }

    /// Checks `assembled`, whose sources are named by `labels`. Throws `IncompleteBuild` naming
    /// every problem; returns the problems `allowPartial` let through, for warnings.
    public func check(_ assembled: TaxonomyAssembler.Assembled, labels: [String]) throws(IncompleteBuild) -> [String] {
        var partial: [String] = []
        for (label, tally) in zip(labels, assembled.sources) {
            if tally.taxaKept == 0 {
                partial.append("\(label) yields no taxa (\(Self.rows(tally.rowsRead)) read, \(tally.rowsSkipped) skipped)")
            } else if tally.skippedShare > Self.maxSkippedShare {
                partial.append("\(label) lost \(Self.percent(tally.skippedShare)) of its rows (\(tally.rowsSkipped) of \(tally.rowsRead)), more than the \(Self.percent(Self.maxSkippedShare)) allowed")
            }
        }
        if !assembled.taxa.contains(where: { $0.status == .accepted }) {
            throw IncompleteBuild(problems: ["no accepted taxon is left"] + partial, acceptable: false)
        }
        if !partial.isEmpty, !allowPartial { throw IncompleteBuild(problems: partial, acceptable: true) }
        return partial
    }

    static func rows(_ count: Int) -> String { count == 1 ? "1 row" : "\(count) rows" }

    static func percent(_ share: Double) -> String {
        let value = share * 100
        return value == value.rounded() ? "\(Int(value)) %" : "\((value * 10).rounded() / 10) %"
    }
}

/// A build refused for what it lost (see `BuildCompleteness`).
public struct IncompleteBuild: Error, Sendable, CustomStringConvertible {
    /// Each problem, one sentence each.
    public var problems: [String]
    /// Whether `--allow-partial` would accept it (false: nothing accepted was left at all).
    public var acceptable: Bool

    public var description: String {
        problems.joined(separator: "; ") + (acceptable ? " (--allow-partial builds it anyway)" : "")
    }
}
