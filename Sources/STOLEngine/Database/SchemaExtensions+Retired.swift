import GRDB

extension SchemaExtensions {
    /// Objects earlier builds wrote and the engine no longer reads: accepted in a database, complete
    /// and exactly as those builds made them, and otherwise ignored.
    ///
    /// `fts_trigram` (the trigrams of every folded name) and `fts_trigram_vocab` were part of
    /// `searchIndex` until the engine's search stopped reading them; they took about a tenth of a
    /// database and of its build.
    static let retiredSQL = """
        CREATE VIRTUAL TABLE fts_trigram USING fts5(
            padded,
            content = '',
            tokenize = 'trigram'
        );
        CREATE VIRTUAL TABLE fts_trigram_vocab USING fts5vocab('fts_trigram', 'row');
        """

    /// The retired objects (FTS5's own tables included) as earlier builds stored them in
    /// `sqlite_master`: type, name and SQL.
    static let retiredObjects: [(type: String, name: String, sql: String?)] = {
        (try? DatabaseQueue().write { db in
            try db.execute(sql: retiredSQL)
            return try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").map { row in
                (type: row[0] as String, name: row[1] as String, sql: row[2] as String?)
            }
        }) ?? []
    }()
}
