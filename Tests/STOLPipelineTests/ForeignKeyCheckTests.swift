import Foundation
import GRDB
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

extension ImporterTests {
    /// `ForeignKeyCheck` counts what `PRAGMA foreign_key_check` counts: on built databases with
    /// references broken on purpose, and on references of every kind, those it looks up in memory
    /// and those it leaves to SQLite (text keys, text values, several columns).
    @Suite struct ForeignKeyChecking {
        static func sqliteCount(_ db: Database) throws -> Int {
            try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count
        }

        @Test func builtDatabaseWithBrokenReferences() throws {
            let fixture = try CompareFixture.make(.forest, count: 2_000, seed: 5, topN: 5)
            defer { fixture.remove() }
            let queue = try DatabaseQueue(path: fixture.url.path)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                #expect(try ForeignKeyCheck.danglingReferences(db) == 0)
                #expect(try Self.sqliteCount(db) == 0)
                try db.execute(sql: """
                    UPDATE top_n_relatives SET relative_id = relative_id + 10000000 WHERE rowid % 97 = 0;
                    UPDATE top_n_relatives SET lca_id = -lca_id WHERE rowid % 89 = 0;
                    UPDATE taxa SET parent_id = 4503599627370495 WHERE id IN (SELECT id FROM taxa WHERE parent_id IS NOT NULL LIMIT 3);
                    DELETE FROM taxa WHERE id IN (SELECT taxon_id FROM first_occurrence ORDER BY seq DESC LIMIT 2);
                    """)
                let expected = try Self.sqliteCount(db)
                #expect(expected > 50)
                #expect(try ForeignKeyCheck.danglingReferences(db) == expected)
            }
        }

        /// Keys dense (a bit set) and spread (a sorted list), values in and out of their range.
        @Test(arguments: [false, true]) func referencesOfEveryKind(spread: Bool) throws {
            let queue = try DatabaseQueue()
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: """
                    PRAGMA foreign_keys = OFF;
                    CREATE TABLE p (id INTEGER PRIMARY KEY, code INTEGER UNIQUE, label TEXT UNIQUE, loose INTEGER);
                    CREATE TABLE q (a INTEGER, b INTEGER, PRIMARY KEY (a, b));
                    CREATE TABLE byID (x INTEGER REFERENCES p(id), y INTEGER REFERENCES p(CODE), z INTEGER REFERENCES p);
                    CREATE TABLE byLabel (x TEXT REFERENCES p(label));
                    CREATE TABLE textValues (x INTEGER REFERENCES p(id));
                    CREATE TABLE twoColumns (a INTEGER, b INTEGER, FOREIGN KEY (a, b) REFERENCES q(a, b));
                    CREATE TABLE untyped (x REFERENCES p(id));
                    """)
                var generator = SplitMix64(seed: spread ? 2 : 1)
                let far: Int64 = spread ? 1 << 40 : 0
                for i in 1...400 where i % 7 != 0 {
                    let id = Int64(i) + (i % 2 == 0 ? far : 0)
                    try db.execute(sql: "INSERT INTO p VALUES (?, ?, ?, ?)", arguments: [id, i * 3, "L\(i)", i])
                    try db.execute(sql: "INSERT INTO q VALUES (?, ?)", arguments: [i, i % 5])
                }
                func value() -> DatabaseValue {
                    switch Int.random(in: 0..<10, using: &generator) {
                    case 0: return .null
                    case 1: return (Int64.random(in: -5...1_500, using: &generator)).databaseValue
                    default:
                        let i = Int64.random(in: 1...400, using: &generator)
                        return (i + (i % 2 == 0 ? far : 0)).databaseValue
                    }
                }
                for _ in 0..<600 {
                    try db.execute(sql: "INSERT INTO byID VALUES (?, ?, ?)", arguments: [value(), (Int64.random(in: 1...1_300, using: &generator)), value()])
                    try db.execute(sql: "INSERT INTO byLabel VALUES (?)", arguments: ["L\(Int.random(in: 1...450, using: &generator))"])
                    try db.execute(sql: "INSERT INTO textValues VALUES (?)", arguments: [value()])
                    try db.execute(sql: "INSERT INTO twoColumns VALUES (?, ?)", arguments: [Int.random(in: 1...420, using: &generator), Int.random(in: 0...5, using: &generator)])
                    try db.execute(sql: "INSERT INTO untyped VALUES (?)", arguments: [value()])
                }
                // A value stored as text where an integer belongs: SQLite's rules decide it.
                try db.execute(sql: "INSERT INTO textValues VALUES ('14'), ('abc'), (3.5)")
                try db.execute(sql: "UPDATE untyped SET x = '2' WHERE rowid = 1")
                let expected = try Self.sqliteCount(db)
                #expect(expected > 300)
                #expect(try ForeignKeyCheck.danglingReferences(db) == expected)

                // Every kind of reference has dangling ones to count.
                for table in ["byID", "byLabel", "textValues", "twoColumns", "untyped"] {
                    let one = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check(\(table))").count
                    #expect(one > 0, "\(table) has no dangling reference to compare")
                }
            }
        }

        @Test func keysDenseAndSpread() {
            let dense = ForeignKeyCheck.Keys([5, 9, 64, 70, 5])
            #expect([5, 9, 64, 70].allSatisfy(dense.contains))
            #expect(![4, 6, 63, 71, -1, Int64.min, Int64.max].contains(where: dense.contains))
            let spread = ForeignKeyCheck.Keys([-(1 << 40), 3, 1 << 50])
            #expect([-(1 << 40), 3, 1 << 50].allSatisfy(spread.contains))
            #expect(![0, 4, Int64.min, Int64.max].contains(where: spread.contains))
            let extremes = ForeignKeyCheck.Keys([Int64.min, Int64.max])
            #expect(extremes.contains(.min) && extremes.contains(.max) && !extremes.contains(0))
            #expect(!ForeignKeyCheck.Keys([]).contains(0))
        }
    }
}
