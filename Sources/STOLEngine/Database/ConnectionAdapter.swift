import Foundation
import GRDB

/// What a read-only connection to a taxonomy database sets up before it serves: temporary views
/// that give a database built by an earlier engine the specification's column names, and the
/// extension cache attached as `ext`. Both live outside the file, which is never written.
struct ConnectionAdapter: Sendable {
    /// `CREATE TEMP VIEW` statements, one per table in the earlier layout.
    var legacyViews: [String]
    /// The extension cache (`ExtensionCache`), if the database needs one.
    var cache: URL?

    /// Runs on each new connection, before `query_only`.
    func prepare(_ db: Database) throws {
        if let cache { try db.execute(sql: "ATTACH DATABASE ? AS ext", arguments: [TaxonomyDatabase.immutableURI(cache)]) }
        for view in legacyViews { try db.execute(sql: view) }
    }

    /// Views for the tables of an engine-built database from before schema v1 followed the
    /// specification (`traits(key, value)`, `euler_tour.idx`, `first_occurrence.idx`): temporary
    /// views of the same names come first in name resolution, so every query reads one layout.
    static func legacyViews(_ db: Database) throws -> [String] {
        func columns(_ table: String) throws -> Set<String> {
            Set(try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table]))
        }
        var views: [String] = []
        if try columns("traits").contains("key") {
            views.append("CREATE TEMP VIEW traits AS SELECT NULL AS id, taxon_id, key AS trait_key, value AS trait_value, NULL AS unit, NULL AS source_ref FROM main.traits")
        }
        if try columns("euler_tour").contains("idx") {
            views.append("CREATE TEMP VIEW euler_tour AS SELECT idx AS seq, taxon_id, depth FROM main.euler_tour")
        }
        if try columns("first_occurrence").contains("idx") {
            views.append("CREATE TEMP VIEW first_occurrence AS SELECT taxon_id, idx AS seq FROM main.first_occurrence")
        }
        return views
    }
}
