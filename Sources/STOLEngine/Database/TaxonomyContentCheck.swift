import Foundation
import GRDB
import STOLSupport

/// What a taxonomy database must hold beyond a sound file and the right schema, so that the
/// engine can serve it whole: every value as its column declares (`StoredValueCheck`), a tree
/// reachable from its roots and no deeper than the engine serves (`TaxonomyTreeCheck`), and
/// full-text indexes FTS5 can read (`FullTextCheck`).
///
/// `database/import` (and `stol-engine verify`) run it inside the integrity check: the values per
/// table in the check's own pass over each (`IntegrityCheck.checksValues`), the tree and the
/// full-text indexes beside the tables (`run`), on the staged copy. A `--database` file gets `problems(_:)` when it is opened, read-only.
final class TaxonomyContentCheck: Sendable {
    /// Goes up whenever the checks grow, so that a file recorded as checked by an earlier engine
    /// (`ExtensionCache.contentCheckRecord`) is checked again.
    static let version = 1

    private let fullText: FullTextCheck
    private let found = Locked<[String]>([])

    /// For the staged copy of an import, which FTS5's `integrity-check` may open for writing.
    init(stagedCopy: URL) {
        fullText = FullTextCheck(path: stagedCopy.path)
    }

    /// The tree and the full-text indexes, on `db` (a connection of the integrity check) and on a
    /// writable connection of the full-text check's own; their problems are kept in `problems`.
    func run(_ db: Database) throws {
        let tree = try TaxonomyTreeCheck.problems(db)
        found.withLock { $0 += tree }
        let fullTextProblems = try fullText.problems()
        found.withLock { $0 += fullTextProblems }
    }

    /// What `run` found.
    var problems: [String] { found.withLock { $0 } }

    /// Stops the full-text check (the integrity check's own `interrupt` stops the rest).
    func interrupt() {
        fullText.interrupt()
    }

    /// Every check that needs no writing, on `db` (a `--database` file, opened read-only): the
    /// values of every table, the tree, and the full-text indexes' format versions. At most
    /// `limit` problems.
    static func problems(_ db: Database, limit: Int = 5) throws -> [String] {
        var problems: [String] = []
        let tables = try String.fetchAll(db, sql: "SELECT CAST(name AS TEXT) FROM main.sqlite_master WHERE type = 'table' AND name IS NOT NULL ORDER BY name")
        for table in tables where problems.count < limit {
            problems += try StoredValueCheck.problems(db, table: table, limit: limit - problems.count)
        }
        if problems.count < limit { problems += try TaxonomyTreeCheck.problems(db, limit: limit - problems.count) }
        if problems.count < limit { problems += try FullTextCheck.versionProblems(db) }
        return Array(problems.prefix(limit))
    }
}
