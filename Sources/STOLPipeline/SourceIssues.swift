/// The problems a source's rows raised, as a build reports them: the first `keepLimit` in full,
/// and every one counted by kind and by the rows it left out.
///
/// A source of millions of bad rows (a 120 KB archive of 2 million rows repeating one id) costs a
/// count per kind here, not a message per row: the build's memory follows the taxa it keeps.
public struct SourceIssues: RandomAccessCollection, Sendable, Equatable {
    /// Issues kept in full, in the order they were met; the rest are only counted.
    public static let keepLimit = 1_000

    /// The issues kept in full, in order.
    public private(set) var kept: [SourceIssue] = []
    /// Every issue met, kept or not.
    public private(set) var total = 0
    /// Source rows the issues left out (a repaired break leaves none; a dropped subtree many).
    public private(set) var rowsSkipped = 0
    /// Issues and rows left out, by kind.
    public private(set) var byKind: [SourceIssue.Kind: (issues: Int, rows: Int)] = [:]

    public init() {}

    /// The issues of `list`, in order.
    public init(_ list: [SourceIssue]) {
        for issue in list { append(issue) }
    }

    /// Records an issue: counted always, kept while fewer than `keepLimit` are.
    public mutating func append(_ issue: SourceIssue) {
        total += 1
        rowsSkipped += issue.rows
        byKind[issue.kind, default: (0, 0)].issues += 1
        byKind[issue.kind, default: (0, 0)].rows += issue.rows
        if kept.count < Self.keepLimit { kept.append(issue) }
    }

    /// Adds `other`'s issues after these: its counts all, its kept issues while room is left.
    public mutating func append(contentsOf other: SourceIssues) {
        total += other.total
        rowsSkipped += other.rowsSkipped
        for (kind, count) in other.byKind {
            byKind[kind, default: (0, 0)].issues += count.issues
            byKind[kind, default: (0, 0)].rows += count.rows
        }
        kept.append(contentsOf: other.kept.prefix(Self.keepLimit - kept.count))
    }

    /// Records each of `issues`, in order.
    public mutating func append<S: Sequence>(contentsOf issues: S) where S.Element == SourceIssue {
        for issue in issues { append(issue) }
    }

    public static func += (lhs: inout SourceIssues, rhs: SourceIssues) { lhs.append(contentsOf: rhs) }

    public static func += (lhs: inout SourceIssues, rhs: [SourceIssue]) { lhs.append(contentsOf: rhs) }

    /// One line per kind, most frequent first: `1999993 duplicate ids (1999993 rows skipped)`.
    public var summary: [String] {
        byKind.sorted { $0.value.issues != $1.value.issues ? $0.value.issues > $1.value.issues : $0.key.name < $1.key.name }
            .map { kind, count in
                "\(count.issues) \(kind.name)" + (count.rows > 0 ? " (\(count.rows) row\(count.rows == 1 ? "" : "s") skipped)" : "")
            }
    }

    public var startIndex: Int { kept.startIndex }
    public var endIndex: Int { kept.endIndex }
    public subscript(position: Int) -> SourceIssue { kept[position] }

    public static func == (lhs: SourceIssues, rhs: SourceIssues) -> Bool {
        lhs.kept == rhs.kept && lhs.total == rhs.total && lhs.rowsSkipped == rhs.rowsSkipped
    }
}

extension SourceIssue {
    /// What kind of problem an issue is, for the summary of a build that met many.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// A plural phrase for the summary: `duplicate ids`.
        public var name: String

        public init(_ name: String) { self.name = name }

        public var description: String { name }

        /// Any other bad row.
        public static let badRow = Kind("bad rows")
        /// A whole file or source that could not be read (no `meta.xml`, a missing table).
        public static let unreadableSource = Kind("unreadable files or sources")
        public static let duplicateID = Kind("duplicate ids")
        public static let noName = Kind("rows without a name")
        /// A field or line over the readers' length limits.
        public static let tooLong = Kind("rows over the length limits")
        public static let ownParent = Kind("taxa that are their own parent")
        public static let missingParent = Kind("taxa whose parent does not exist")
        public static let parentCycle = Kind("parent cycles")
        public static let droppedWithAncestor = Kind("subtrees dropped with their ancestor")
        /// A synonym or common name whose accepted name is not in the source.
        public static let danglingPointer = Kind("names pointing at no accepted name")
        /// A chain of synonyms that never reaches an accepted name (a loop, or too long).
        public static let synonymChainBroken = Kind("synonym chains that never reach an accepted name")
        /// A row whose own status says accepted while its accepted-name pointer names another row.
        public static let statusAgainstPointer = Kind("rows whose status and accepted-name pointer disagree")
        /// Two sources, or two rows, saying different things of one taxon.
        public static let conflict = Kind("conflicting details")
    }
}
