import Foundation
import GRDB
import STOLEngine
import STOLSupport

/// The checks a build runs on the file it wrote: everything SQLite's `integrity_check` checks
/// (`IntegrityCheck`: two connections share its pieces, largest table first), and every foreign
/// key (`ForeignKeyCheck`, which the second connection runs first), since the build writes with
/// enforcement off. On NCBI: 22.4 s as one `integrity_check` beside SQLite's foreign-key check.
struct BuiltDatabaseCheck {
    /// The database file to check.
    var path: String
    /// The page cache of each connection.
    var cache: String

    /// Throws the first failure: a damaged file, then dangling references.
    func run() throws {
        let dangling = Locked(0)
        let found = try IntegrityCheck(path: path, cache: cache).problems { db in
            let count = try ForeignKeyCheck.danglingReferences(db)
            dangling.withLock { $0 += count }
        }
        guard found.isEmpty else { throw SourceIssue("integrity check failed: \(found.prefix(5).joined(separator: "; "))", at: nil) }
        let count = dangling.withLock { $0 }
        guard count == 0 else { throw SourceIssue("foreign key check failed: \(count) dangling references", at: nil) }
    }
}
