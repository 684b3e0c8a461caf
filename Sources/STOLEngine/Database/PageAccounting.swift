import GRDB

/// Whether every page of a database file belongs to exactly one b-tree: what `quick_check` adds
/// to the per-table `integrity_check(T)`, which check each b-tree's own pages but not the file's.
///
/// A finished build has no free pages and no pointer-map pages, so the b-trees `dbstat` walks must
/// cover the file once, all but the page holding SQLite's lock bytes. That walk reads each page
/// once without decoding its records: NCBI 1.8 s, against 10.6 s for `quick_check`, which decodes
/// every record again after the table checks have. A file with free pages or auto-vacuum, or one
/// `dbstat` cannot walk (a damaged page, a library without it), gets `quick_check` and its words.
package enum PageAccounting {
    /// The problems found, as sentences; none for a sound file.
    package static func problems(_ db: Database) throws -> [String] {
        let freePages = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
        let autoVacuum = try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") ?? 0
        guard freePages == 0, autoVacuum == 0,
              let walked = try? Row.fetchOne(db, sql: "SELECT count(*), count(DISTINCT pageno) FROM dbstat") else {
            return try String.fetchAll(db, sql: "PRAGMA quick_check").filter { $0 != "ok" }
        }
        let references: Int = walked[0], pages: Int = walked[1]
        let pageCount = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
        let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
        // The page holding the lock bytes, at 1 GiB, is never used.
        let lockPage = (1 << 30) / pageSize + 1
        let expected = pageCount - (pageCount >= lockPage ? 1 : 0)
        var problems: [String] = []
        if references > pages { problems.append("\(references - pages) pages are used more than once") }
        if pages < expected { problems.append("\(expected - pages) pages are never used") }
        if pages > expected { problems.append("the b-trees hold \(pages - expected) pages more than the file") }
        return problems
    }
}
