/// A value or a link in a taxonomy database that its schema does not allow: a value of another
/// type than its column declares (text in an INTEGER column, a blob, text that is not UTF-8 or
/// holds NUL), a value outside the schema's set (a rank, a status), or a lineage that never
/// reaches a root. SQLite keeps whatever it is given, so a read meets these as data, not as
/// damage SQLite reports; the request that meets one answers -32020 `databaseCorrupt` with the
/// detail, and `database/info` reports it (`TaxonomyDatabase.damage`).
public struct DataFault: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the table, the column and the row.
    public var detail: String

    public init(_ detail: String) {
        self.detail = detail
    }

    /// `column` (`taxa.year`) holds `found` where the schema has `expected`, in `row` (the table
    /// and rowid of the row read; another table's when the column's own row is not known).
    static func value(_ column: String, row: (table: String, rowid: Int64)?, found: String, expected: String) -> DataFault {
        var where_ = ""
        if let row {
            where_ = row.table == column.prefix(while: { $0 != "." }) ? " (\(row.table) rowid \(row.rowid))" : " (read for \(row.table) rowid \(row.rowid))"
        }
        return DataFault("\(column) holds \(found) where the schema has \(expected)\(where_)")
    }

    /// The lineage of `taxon` does not reach a root: `reason` says where it stops.
    static func lineage(of taxon: Int64, _ reason: String) -> DataFault {
        DataFault("taxa.parent_id: the lineage of taxa rowid \(taxon) does not reach a root: \(reason)")
    }

    /// The lineage of `taxon` reaches `orphan`, whose parent names no taxon.
    static func lineage(of taxon: Int64, orphan: Int64, parent: Int64) -> DataFault {
        lineage(of: taxon, "taxa rowid \(orphan) has parent_id \(parent), which names no taxon")
    }

    /// The lineage of `taxon` is longer than any the engine serves: a parent cycle, or a deeper tree.
    static func lineage(tooDeep taxon: Int64) -> DataFault {
        lineage(of: taxon, "it has more than \(TaxonomyLimits.maxDepth) ancestors (a parent cycle, or a tree deeper than the engine serves)")
    }

    public var description: String { detail }
}
