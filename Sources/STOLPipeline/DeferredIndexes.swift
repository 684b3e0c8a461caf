import GRDB

/// The secondary indexes of some tables, dropped while the tables fill and created again once they
/// are full.
///
/// An index kept during a bulk load takes one B-tree descent per row at a random key; creating it
/// afterwards sorts the keys once and writes the tree in order. The indexes come back with the
/// text the schema gave them, so the database holds the same schema (only `sqlite_master`'s order
/// differs). Indexes behind a constraint (`sqlite_autoindex_…`) have no text and stay.
struct DeferredIndexes {
    private var pending: [(table: String, name: String, sql: String)]

    /// Drops the explicit indexes of `tables`, remembering how to create them.
    init(_ db: Database, tables: [String]) throws {
        pending = try tables.flatMap { table in
            try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY rowid", arguments: [table])
                .map { (table: table, name: $0[0] as String, sql: $0[1] as String) }
        }
        for index in pending { try db.execute(sql: "DROP INDEX \(index.name.quotedDatabaseIdentifier)") }
    }

    /// Creates again the dropped indexes of `tables`, in the schema's order.
    mutating func create(_ db: Database, for tables: [String]) throws {
        for index in pending where tables.contains(index.table) { try db.execute(sql: index.sql) }
        pending.removeAll { tables.contains($0.table) }
    }
}
