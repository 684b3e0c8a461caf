import GRDB

/// Rows for one table, written `rowsPerStatement` at a time by one multi-row INSERT.
///
/// Running a statement has a fixed cost (resetting it, opening the table and each of its indexes)
/// that a build writing tens of millions of rows would otherwise pay once per row. Rows go in in
/// the order they are appended, so rowids and contents are those of row-by-row inserts. Call
/// `finish()` before the transaction ends: it writes the rows still held. A failed row leaves the
/// rows before it written: roll the transaction back. Not for virtual tables: SQLite runs a
/// multi-row insert into one in a statement savepoint, and FTS5 writes out its pending terms at
/// each savepoint.
package struct BatchedInsert {
    private let db: Database
    private let head: String
    private let row: String
    private let columns: Int
    private let rowsPerStatement: Int
    private let full: BulkStatement
    private var pending: [BulkStatement.Value] = []

    /// An insert into `table`'s `columns`.
    package init(_ db: Database, into table: String, columns: [String], rowsPerStatement: Int = 64) throws {
        precondition(!columns.isEmpty && rowsPerStatement > 0)
        self.db = db
        // OR FAIL: a multi-row insert that may abort halfway runs in a statement savepoint, and a
        // savepoint makes every FTS5 table of the transaction flush its pending terms. A failed
        // insert fails the whole build or import anyway.
        self.head = "INSERT OR FAIL INTO \(table)(\(columns.joined(separator: ", "))) VALUES "
        self.row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ",") + ")"
        self.columns = columns.count
        self.rowsPerStatement = rowsPerStatement
        self.full = try BulkStatement(db, head + Array(repeating: row, count: rowsPerStatement).joined(separator: ","))
        pending.reserveCapacity(columns.count * rowsPerStatement)
    }

    /// Adds one row, its values in column order; writes a full batch.
    package mutating func append(_ values: BulkStatement.Value...) throws {
        precondition(values.count == columns, "a row of \(values.count) values for \(columns) columns")
        pending.append(contentsOf: values)
        if pending.count == columns * rowsPerStatement {
            try full.insert(pending)
            pending.removeAll(keepingCapacity: true)
        }
    }

    /// Writes the rows still held.
    package mutating func finish() throws {
        guard !pending.isEmpty else { return }
        let rows = pending.count / columns
        try BulkStatement(db, head + Array(repeating: row, count: rows).joined(separator: ",")).insert(pending)
        pending.removeAll(keepingCapacity: true)
    }
}
