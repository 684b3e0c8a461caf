/// The rows of a checklist's name-usage table as they are read, each id once (DwC-A core, ColDP
/// NameUsage or Taxon + Synonym). A row repeating an id, or with no name to build, is reported
/// as it arrives and never kept, so a source of millions of bad rows costs a count, not memory.
struct NameUsageTable {
    /// The rows kept, in source order.
    private(set) var rows: [NameUsageRow] = []
    /// Each id's row in `rows` (ids of rows kept; the first row of an id wins).
    private(set) var index: [String: Int] = [:]
    /// Rows offered, kept or not.
    private(set) var rowsRead = 0

    /// Keeps `row`, or reports why not in `issues`.
    mutating func add(_ row: NameUsageRow, issues: inout SourceIssues) {
        rowsRead += 1
        if !row.id.isEmpty, let first = index[row.id] {
            issues.append(SourceIssue("duplicate id \(row.id) (first at \(rows[first].location)); row skipped", at: row.location, kind: .duplicateID))
            return
        }
        guard !NameUsageTree.name(of: row).isEmpty else {
            issues.append(SourceIssue("no scientific name, genus or epithet; row skipped", at: row.location, kind: .noName))
            return
        }
        if !row.id.isEmpty { index[row.id] = rows.count }
        rows.append(row)
    }

    /// Whether a row with `id` was kept.
    func contains(id: String) -> Bool { index[id] != nil }
}
