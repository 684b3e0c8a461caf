import Foundation

/// The taxonomy database schema this engine reads and writes: the specification's schema v1
/// (Resources/schema-v1.sql, DataLoading.md §3) plus the engine's extensions (`SchemaExtensions`).
public enum Schema {
    /// The highest schema version this engine understands.
    public static let currentVersion = 1

    /// The specification's SQL (Resources/schema-v1.sql); it also inserts the `schema_version` row.
    public static func specificationSQL() throws -> String {
        guard let url = Bundle.module.url(forResource: "schema-v1", withExtension: "sql", subdirectory: "Resources") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// The SQL that creates a complete version-1 database: the specification's, then every extension.
    public static func sql() throws -> String {
        try specificationSQL() + "\n" + SchemaExtensions.allSQL
    }
}
