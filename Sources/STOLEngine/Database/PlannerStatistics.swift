import GRDB
import STOLSupport

/// The planner statistics of a taxonomy database the engine serves are its own. An imported file's
/// `sqlite_stat1` could claim that the index on `parent_id` is useless and the one on `rank`
/// unique, and SQLite would then answer `taxon/children` with a scan of every taxon; a
/// `sqlite_stat4` could mislead it the same way.
///
/// The integrity check reads every index in order anyway (`IndexContentCheck`); on the way it
/// counts each index's entries and the distinct values of each key prefix, which is all `ANALYZE`
/// writes into `sqlite_stat1`. An import keeps the file's statistics only when they are exactly
/// these (as `build-db`'s are), so the installed file is the signed one byte for byte; otherwise
/// (statistics of another tool, tampered ones, none at all, any `sqlite_stat4`) it drops them and
/// runs `ANALYZE` on the staged copy (`recompute`).
package final class PlannerStatistics: Sendable {
    private struct Entry: Hashable {
        var table: String
        var index: String?
        var stat: String
    }

    private let rows = Locked<Set<Entry>>([])
    /// Tables whose indexes the passes did not count (`IndexContentCheck` does not model them).
    private let uncounted = Locked<Set<String>>([])

    package init() {}

    /// Records an index of `table` with `entries` entries and `distinct` values per key prefix.
    func record(table: String, index: String, entries: Int, distinct: [Int]) {
        guard entries > 0 else { return }  // ANALYZE writes no row for an empty index.
        rows.withLock { _ = $0.insert(Entry(table: table, index: index, stat: Self.stat(entries: entries, distinct: distinct))) }
    }

    /// Records `table`, which has no index, with `rows` rows.
    func record(table: String, rows count: Int) {
        guard count > 0 else { return }
        rows.withLock { _ = $0.insert(Entry(table: table, index: nil, stat: String(count))) }
    }

    /// Notes that `table`'s indexes were not counted (`matches` then counts small ones itself).
    func markUncounted(_ table: String) {
        uncounted.withLock { _ = $0.insert(table) }
    }

    /// What `ANALYZE` writes in `sqlite_stat1.stat` for an index: its entries, then per key prefix
    /// the average number of entries per distinct value, rounded up (and 2 written as 1 when
    /// nearly every value is distinct), as SQLite's `analyze.c` computes it.
    static func stat(entries: Int, distinct: [Int]) -> String {
        var out = String(entries)
        for values in distinct {
            let n = max(values, 1)
            var average = (entries + n - 1) / n
            if average == 2, entries * 10 <= n * 11 { average = 1 }
            out += " \(average)"
        }
        return out
    }

    /// Largest table counted here when the integrity check's passes did not count it.
    static let countedHereLimit = 100_000

    /// Whether `db`'s statistics are exactly what `ANALYZE` would write for its data: the rows
    /// recorded by the integrity check's passes, and those of small tables they did not count
    /// (counted here), and no `sqlite_stat4`. False also for a file without statistics.
    func matches(_ db: Database) throws -> Bool {
        guard try db.tableExists("sqlite_stat1"), try !db.tableExists("sqlite_stat4") else { return false }
        var expected = rows.withLock { $0 }
        for table in uncounted.withLock({ $0 }) {
            guard let counted = try Self.count(db, table: table) else { return false }
            expected.formUnion(counted)
        }
        let stored = try GRDB.Row.fetchAll(db, sql: "SELECT typeof(tbl), CAST(tbl AS TEXT), typeof(idx), CAST(idx AS TEXT), typeof(stat), CAST(stat AS TEXT) FROM sqlite_stat1")
        var found: Set<Entry> = []
        for row in stored {
            guard row[0] as String? == "text", row[2] as String? == "text" || row[2] as String? == "null", row[4] as String? == "text",
                  let table = row[1] as String?, let stat = row[5] as String? else { return false }
            guard found.insert(Entry(table: table, index: row[3] as String?, stat: stat)).inserted else { return false }
        }
        return found == expected
    }

    /// The rows `ANALYZE` would write for `table`, counted with SQL; nil when it is too large to
    /// count so (then the import recomputes).
    private static func count(_ db: Database, table: String) throws -> Set<Entry>? {
        let name = table.quotedDatabaseIdentifier
        let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(name)") ?? 0
        guard total <= countedHereLimit else { return nil }
        let indexes = try GRDB.Row.fetchAll(db, sql: "SELECT CAST(name AS TEXT), CAST(origin AS TEXT) FROM pragma_index_list(?)", arguments: [table])
        guard !indexes.isEmpty else { return total > 0 ? [Entry(table: table, index: nil, stat: String(total))] : [] }
        let withoutRowid = try Bool.fetchOne(db, sql: "SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?", arguments: [table]) ?? false
        var out: Set<Entry> = []
        for listed in indexes {
            guard let index = listed[0] as String? else { return nil }
            // ANALYZE names the primary key of a table without rowid after the table.
            let named = withoutRowid && listed[1] as String? == "pk" ? table : index
            let keys = try GRDB.Row.fetchAll(db, sql: "SELECT CAST(name AS TEXT), CAST(coll AS TEXT) FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno", arguments: [index])
            var columns: [String] = []
            for key in keys {
                // An expression key has no name: ANALYZE's count cannot be repeated here.
                guard let column = key[0] as String?, let collation = key[1] as String? else { return nil }
                columns.append("\(column.quotedDatabaseIdentifier) COLLATE \(collation)")
            }
            let entries = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(name) INDEXED BY \(index.quotedDatabaseIdentifier)") ?? 0
            guard entries > 0 else { continue }
            var distinct: [Int] = []
            for k in 1...max(columns.count, 1) {
                let prefix = columns.prefix(k).joined(separator: ", ")
                distinct.append(try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT DISTINCT \(prefix) FROM \(name))") ?? 0)
            }
            out.insert(Entry(table: table, index: named, stat: stat(entries: entries, distinct: distinct)))
        }
        return out
    }

    /// Replaces the statistics of `db` (writable, the staged copy) with `ANALYZE`'s.
    static func recompute(_ db: Database) throws {
        for table in ["sqlite_stat1", "sqlite_stat4"] where try db.tableExists(table) {
            try db.execute(sql: "DROP TABLE \(table)")
        }
        try db.execute(sql: "ANALYZE")
    }
}
