import Foundation
import GRDB
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

    /// `IndexContentCheck` finds what `integrity_check(T)` finds beyond `quick_check(T)`: on built
    /// databases, on indexes broken each way one can be (an entry missing, one too many, a wrong
    /// value, entries out of order, a repeated key in a UNIQUE index), on random tables broken at
    /// random, and it leaves to SQLite the tables it does not model.
@Suite struct IndexContentChecking {
    /// A database in a new folder, written by `sql` with foreign keys off; `edit` then runs on
    /// a second connection, so that a schema it rewrote is read afresh by the checks.
    static func database(_ dir: TemporaryDirectory, _ name: String, _ sql: String, edit: String? = nil) throws -> DatabaseQueue {
        let path = dir.url.appendingPathComponent(name).path
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA foreign_keys = OFF; " + sql) }
        try queue.close()
        if let edit {
            let editor = try DatabaseQueue(path: path)
            try editor.writeWithoutTransaction { db in try db.execute(sql: edit) }
            try editor.close()
        }
        return try DatabaseQueue(path: path)
    }

    /// SQL that changes table `t` by `change` while index `index` is out of the schema, then puts
    /// the index back on its old b-tree: the index keeps the entries it had.
    static func staleIndex(_ index: String, change: String) -> String {
        """
        CREATE TEMP TABLE kept AS SELECT * FROM sqlite_schema WHERE name = '\(index)';
        PRAGMA writable_schema = ON; DELETE FROM sqlite_schema WHERE name = '\(index)'; PRAGMA writable_schema = RESET;
        \(change);
        PRAGMA writable_schema = ON; INSERT INTO sqlite_schema SELECT * FROM temp.kept; PRAGMA writable_schema = RESET;
        """
    }

    /// What SQLite's own check says of `table`, less its "ok".
    static func integrityProblems(_ db: Database, _ table: String) throws -> [String] {
        try String.fetchAll(db, sql: "PRAGMA integrity_check(\(table.quotedDatabaseIdentifier))").filter { $0 != "ok" }
    }

    static func quickCheckPasses(_ db: Database, _ table: String) throws -> Bool {
        try String.fetchAll(db, sql: "PRAGMA quick_check(\(table.quotedDatabaseIdentifier))") == ["ok"]
    }

    /// Every table of a built database: the ones with indexes are modelled and sound, as
    /// SQLite finds them; FTS5's WITHOUT ROWID shadow tables are left to SQLite.
    @Test func builtDatabaseIsSound() throws {
        let fixture = try CompareFixture.make(.forest, count: 3_000, seed: 41, topN: 5)
        defer { fixture.remove() }
        let queue = try DatabaseQueue(path: fixture.url.path)
        try queue.read { db throws in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'")
            for table in tables {
                let found = try IndexContentCheck.problems(db, table: table)
                if ["taxa", "names", "top_n_relatives", "search_names", "first_occurrence"].contains(table) {
                    #expect(found == [], "\(table)")
                }
                if table.hasSuffix("_idx") { #expect(found == nil, "\(table) has no rowid") }
                #expect(try Self.integrityProblems(db, table) == [])
            }
            let layout = try #require(try IndexContentCheck.TableLayout(db, table: "taxa"))
            #expect(Set(layout.indexes.map(\.name)) == Set(try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list('taxa')")))
            let nocase = try #require(layout.indexes.first { $0.name == "idx_taxa_scientific_name" })
            #expect(nocase.keys.map(\.name) == ["scientific_name"])
            #expect(nocase.keys.first?.collation == .nocase)
            let unique = try #require(try IndexContentCheck.TableLayout(db, table: "top_n_relatives")?.indexes.first { $0.unique })
            #expect(unique.keys.map(\.name) == ["taxon_id", "rank_order"])
        }
    }

    /// Each way an index can disagree with its table, and the sentence that says so.
    @Test func brokenIndexes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let table = """
            CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, code INTEGER);
            CREATE INDEX idx_name ON t(name);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
            INSERT INTO t SELECT i, CASE i % 3 WHEN 0 THEN 'Name ' ELSE 'name ' END || (i * 7919 % 3000), i % 50 FROM n;
            """
        let stale = { (change: String) in Self.staleIndex("idx_name", change: change) }
        let cases: [(name: String, edit: String, says: String)] = [
            ("missing", stale("INSERT INTO t VALUES (5000, 'late', 1)"), "wrong # of entries in index idx_name: 3000 for 3001 rows"),
            ("extra", stale("DELETE FROM t WHERE id = 17"), "wrong # of entries in index idx_name: 3000 for 2999 rows"),
            ("changed", stale("UPDATE t SET name = 'renamed' WHERE id = 17"), "index idx_name does not hold its table's rows"),
            ("moved", stale("UPDATE t SET id = 9999 WHERE id = 17"), "index idx_name does not hold its table's rows"),
            ("other column", "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = 'CREATE INDEX idx_name ON t(code)' WHERE name = 'idx_name';",
             "index idx_name does not hold its table's rows"),
            ("other collation", "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = 'CREATE INDEX idx_name ON t(name COLLATE NOCASE)' WHERE name = 'idx_name';",
             "index idx_name is out of order at rowid"),
            ("descending", "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = 'CREATE INDEX idx_name ON t(name DESC)' WHERE name = 'idx_name';",
             "index idx_name is out of order at rowid"),
        ]
        for (name, edit, says) in cases {
            let queue = try Self.database(dir, name + ".sqlite", table, edit: edit)
            try queue.read { db throws in
                #expect(try Self.quickCheckPasses(db, "t"), "\(name)")
                #expect(try !Self.integrityProblems(db, "t").isEmpty, "\(name): SQLite finds it too")
                let found = try #require(try IndexContentCheck.problems(db, table: "t"), "\(name)")
                #expect(found.contains { $0.hasPrefix(says) }, "\(name): \(found)")
            }
            try queue.close()
        }
        // A UNIQUE index over repeated keys (NULLs may repeat).
        let unique = try Self.database(
            dir, "unique.sqlite", table + "UPDATE t SET code = NULL WHERE id > 2990; CREATE INDEX idx_code ON t(code);",
            edit: "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = 'CREATE UNIQUE INDEX idx_code ON t(code)' WHERE name = 'idx_code';")
        try unique.read { db throws in
            #expect(try !Self.integrityProblems(db, "t").isEmpty)
            let found = try #require(try IndexContentCheck.problems(db, table: "t"))
            #expect(found.count == 10)  // reported up to ten times
            #expect(found.allSatisfy { $0.hasPrefix("non-unique entry in index idx_code") })
        }
        let nullsOnly = try Self.database(
            dir, "nulls.sqlite", table + "UPDATE t SET code = CASE WHEN id % 2 = 0 THEN id END; CREATE INDEX idx_code ON t(code);",
            edit: "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = 'CREATE UNIQUE INDEX idx_code ON t(code)' WHERE name = 'idx_code';")
        try nullsOnly.read { db throws in
            #expect(try Self.integrityProblems(db, "t") == [])
            #expect(try IndexContentCheck.problems(db, table: "t") == [])
        }
    }

    /// Tables the check does not model are left to `integrity_check(T)`.
    @Test func unmodelledTablesFallBack() throws {
        let queue = try DatabaseQueue()
        try queue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE real_key (id INTEGER PRIMARY KEY, x REAL); CREATE INDEX i_real ON real_key(x); INSERT INTO real_key VALUES (1, 1.5);
                CREATE TABLE blob_key (id INTEGER PRIMARY KEY, x); CREATE INDEX i_blob ON blob_key(x); INSERT INTO blob_key VALUES (1, x'00ff');
                CREATE TABLE partial (id INTEGER PRIMARY KEY, x TEXT); CREATE INDEX i_partial ON partial(x) WHERE x > 'm';
                CREATE TABLE expression (id INTEGER PRIMARY KEY, x TEXT); CREATE INDEX i_expression ON expression(lower(x));
                CREATE TABLE no_rowid (k TEXT PRIMARY KEY, x TEXT) WITHOUT ROWID; CREATE INDEX i_no_rowid ON no_rowid(x);
                CREATE TABLE generated (id INTEGER PRIMARY KEY, x TEXT, y TEXT AS (upper(x))); CREATE INDEX i_generated ON generated(x);
                CREATE TABLE plain (id INTEGER PRIMARY KEY, x TEXT); INSERT INTO plain VALUES (1, 'a');
                CREATE TABLE text_key (id INTEGER PRIMARY KEY, x TEXT); CREATE INDEX i_text ON text_key(x); INSERT INTO text_key VALUES (1, 'a'), (2, NULL), (3, 7);
                CREATE TABLE "rowid" ("rowid" TEXT, "_rowid_" TEXT, x TEXT); CREATE INDEX i_shadowed ON "rowid"(x);
                CREATE TABLE oid_left ("rowid" TEXT, "_rowid_" TEXT, x TEXT); CREATE INDEX i_oid ON oid_left(x); INSERT INTO oid_left VALUES ('a', 'b', 'c');
                """)
            for table in ["real_key", "blob_key", "partial", "expression", "no_rowid", "generated"] {
                #expect(try IndexContentCheck.problems(db, table: table) == nil, "\(table)")
            }
            #expect(try IndexContentCheck.problems(db, table: "plain") == [])
            #expect(try IndexContentCheck.problems(db, table: "text_key") == [])
            #expect(try IndexContentCheck.problems(db, table: "rowid") == [])
            #expect(try IndexContentCheck.TableLayout(db, table: "oid_left")?.rowid == "oid")
            #expect(try IndexContentCheck.problems(db, table: "oid_left") == [])
        }
    }

    /// SQLite's collations, as the order check compares texts: BINARY by bytes, NOCASE folding
    /// ASCII letters only and stopping at a NUL of the first text, RTRIM ignoring trailing spaces.
    @Test func collations() {
        func compare(_ a: String, _ b: String, _ collation: IndexContentCheck.Collation) -> Int {
            IndexContentCheck.EntryKey.compare(Array(a.utf8), Array(b.utf8), collation).signum()
        }
        #expect(compare("B", "a", .binary) == -1)
        #expect(compare("B", "a", .nocase) == 1)
        #expect(compare("ab", "AB", .nocase) == 0)
        #expect(compare("ab", "AB", .binary) == 1)
        #expect(compare("abc", "ab", .nocase) == 1)
        #expect(compare("Äb", "äb", .nocase) == -1)  // no folding beyond ASCII
        #expect(compare("a\u{0}x", "a\u{0}y", .nocase) == 0)
        #expect(compare("a ", "a", .rtrim) == 0)
        #expect(compare("a ", "a", .binary) == 1)
        #expect(compare(" a", "a", .rtrim) == -1)
    }

    /// Random tables, indexes and damage: the check fails wherever SQLite's own check does
    /// (and passes every table left whole), so `quick_check(T)` and it check no less.
    @Test(arguments: 0..<6) func randomTablesAgreeWithSQLite(seed: UInt64) throws {
        var random = SplitMix64(seed: 0x1D3C_0000 + seed)
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let words = ["ant", "Ant", "ANT", "bee", "Bee", "bee ", "cat", "ca", "Émile", "émile", "zebra", "Zebra ", "", "a\u{1}b"]
        func value(_ kind: Int) -> String {
            switch kind == 3 ? Int.random(in: 0...2, using: &random) : kind {
            case 0: return Int.random(in: 0..<10, using: &random) == 0 ? "NULL" : String(Int.random(in: -40...40, using: &random))
            case 1:
                guard Int.random(in: 0..<12, using: &random) != 0 else { return "NULL" }
                return "'" + words.randomElement(using: &random)! + String(Int.random(in: 0...3, using: &random)) + ["", "", " ", "  "].randomElement(using: &random)! + "'"
            default: return "NULL"
            }
        }
        var damaged = 0, whole = 0
        for round in 0..<12 {
            // Columns of integers, texts or any (mixed) values; 150 to 400 rows.
            let kinds = (0..<4).map { _ in Int.random(in: 0...3, using: &random) }
            let columns = kinds.indices.map { "c\($0)" }
            let declared = zip(columns, kinds).map { $0 + ($1 == 0 ? " INTEGER" : $1 == 1 ? " TEXT" : "") }
            var sql = "CREATE TABLE t (id INTEGER PRIMARY KEY, \(declared.joined(separator: ", ")));\n"
            for id in 1...Int.random(in: 150...400, using: &random) {
                sql += "INSERT INTO t VALUES (\(id * 3), \(kinds.map(value).joined(separator: ", ")));\n"
            }
            // Indexes of one or two keys: column, collation, descending.
            let collations = ["BINARY", "NOCASE", "RTRIM"]
            typealias Key = (column: String, collation: Int, descending: Bool)
            func create(_ i: Int, _ keys: [Key], unique: Bool = false) -> String {
                let list = keys.map { "\($0.column) COLLATE \(collations[$0.collation])\($0.descending ? " DESC" : "")" }
                return "CREATE \(unique ? "UNIQUE " : "")INDEX i\(i) ON t(\(list.joined(separator: ", ")))"
            }
            let indexes: [[Key]] = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                columns.shuffled(using: &random).prefix(Int.random(in: 1...2, using: &random)).map {
                    ($0, Int.random(in: 0..<3, using: &random), Bool.random(using: &random))
                }
            }
            sql += indexes.enumerated().map { create($0, $1) + ";\n" }.joined()
            // Damage, or none.
            let target = Int.random(in: 0..<indexes.count, using: &random)
            var keys = indexes[target]
            func declare(_ sql: String) -> String {
                "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = '\(sql)' WHERE name = 'i\(target)';"
            }
            let changes = [
                "UPDATE t SET c0 = \(value(kinds[0])) WHERE id % 7 = \(round % 7)", "DELETE FROM t WHERE id % 11 = 0",
                "INSERT INTO t(id, c1) VALUES (100000, \(value(kinds[1])))", "UPDATE t SET id = id + 1 WHERE id % 5 = 0",
            ]
            let edit: String?
            switch Int.random(in: 0...4, using: &random) {
            case 0: edit = nil
            case 1: edit = Self.staleIndex("i\(target)", change: changes.randomElement(using: &random)!)
            case 2:  // declared in another order than its b-tree's
                if Bool.random(using: &random) { keys[0].descending.toggle() } else { keys[0].collation = (keys[0].collation + 1) % 3 }
                edit = declare(create(target, keys))
            case 3: edit = declare(create(target, keys, unique: true))
            default:  // on other columns
                keys[0].column = columns.filter { $0 != keys[0].column }.randomElement(using: &random)!
                edit = declare(create(target, keys))
            }
            let queue = try Self.database(dir, "r\(round).sqlite", sql, edit: edit)
            try queue.read { db throws in
                guard try Self.quickCheckPasses(db, "t") else { return }
                let sqlite = try Self.integrityProblems(db, "t")
                let found = try #require(try IndexContentCheck.problems(db, table: "t"), "round \(round)")
                if !sqlite.isEmpty {
                    damaged += 1
                    #expect(!found.isEmpty, "round \(round), SQLite: \(sqlite), \(sql.suffix(300)), \(edit ?? "")")
                } else if edit == nil {
                    whole += 1
                    #expect(found == [], "round \(round): \(sql.suffix(300))")
                }
            }
            try queue.close()
        }
        #expect(damaged + whole > 4)
    }
}
