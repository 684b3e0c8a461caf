import Foundation

/// The taxonomy database schema this engine reads and writes.
public enum Schema {
    /// The highest schema version this engine understands.
    public static let currentVersion = 1

    /// The SQL that creates a version-1 database (Resources/schema-v1.sql).
    public static func sql() throws -> String {
        guard let url = Bundle.module.url(forResource: "schema-v1", withExtension: "sql", subdirectory: "Resources") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try String(contentsOf: url, encoding: .utf8)
    }
}
