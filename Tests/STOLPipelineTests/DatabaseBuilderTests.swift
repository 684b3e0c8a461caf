import Foundation
import GRDB
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

extension ImporterTests {
    /// What `DatabaseBuilder` writes beyond the importers: relatives found on a thread of their own,
    /// indexes created once their tables are full, and the checks of the finished file.
    @Suite struct DatabaseBuilding {
        /// Relatives cross several of the finder's batches and still come out complete, in order
        /// and equal to a brute-force search.
        @Test func relativesAcrossBatchesEqualBruteForce() throws {
            let fixture = try CompareFixture.make(.forest, count: 12_000, seed: 1818, topN: 5)
            defer { fixture.remove() }
            let rows = try Self.open(fixture).read { db in
                try Row.fetchAll(db, sql: "SELECT taxon_id, relative_id, rank_order, lca_id, lca_depth, distance FROM top_n_relatives ORDER BY rowid")
            }
            #expect(rows.count > 2 * DatabaseBuilder.relativesBatchSize)

            let assembled = fixture.assembled
            let species = assembled.taxa.indices.filter { assembled.taxa[$0].rank == .species }.sorted { assembled.ids[$0] < assembled.ids[$1] }
            let index = Dictionary(uniqueKeysWithValues: assembled.ids.enumerated().map { ($1, $0) })
            func root(_ i: Int) -> Int {
                var node = i
                while assembled.parentIndex[node] >= 0 { node = Int(assembled.parentIndex[node]) }
                return node
            }
            let speciesInTree = Dictionary(grouping: species, by: root).mapValues(\.count)
            // Rows go species by species in id order, each with rank 1, 2, … and no species missing.
            var bySpecies: [Int64: [Row]] = [:]
            var order: [Int64] = []
            for row in rows {
                let id: Int64 = row["taxon_id"]
                if order.last != id { order.append(id) }
                bySpecies[id, default: []].append(row)
            }
            #expect(order == species.map { assembled.ids[$0] }.filter { bySpecies[$0] != nil })
            #expect(Set(order).count == order.count)
            for i in species {
                let stored = bySpecies[assembled.ids[i]] ?? []
                #expect(stored.map { $0["rank_order"] as Int } == Array(1..<(stored.count + 1)))
                #expect(stored.count == min(5, speciesInTree[root(i)]! - 1), "species \(assembled.ids[i])")
            }
            // Brute force on every 40th species, spread over every batch.
            for (k, i) in species.enumerated() where k % 40 == 0 {
                let stored = bySpecies[assembled.ids[i]] ?? []
                let naive = fixture.naiveRelatives(of: i, n: 5)
                #expect(stored.map { $0["relative_id"] as Int64 } == naive.map(\.id), "species \(assembled.ids[i])")
                #expect(stored.map { $0["distance"] as Int } == naive.map(\.distance))
                for row in stored {
                    let lca = try #require(index[row["lca_id"] as Int64])
                    #expect(CompareTrees.depth(assembled.parentIndex, Int32(lca)) == row["lca_depth"] as Int)
                }
            }
        }

        /// Every index of the schema is there with the schema's own text, although the build drops
        /// some while their tables fill.
        @Test func indexesMatchTheSchema() throws {
            let fixture = try CompareFixture.make(.random, count: 300, seed: 7)
            defer { fixture.remove() }
            let built = try Self.open(fixture).read { db in try Self.indexes(db) }
            let schema = try DatabaseQueue()
            let expected = try schema.write { db in
                try db.execute(sql: try Schema.sql())
                return try Self.indexes(db)
            }
            #expect(!expected.isEmpty)
            #expect(built == expected)
            for table in DatabaseBuilder.bulkTables {
                #expect(expected.keys.contains { $0.hasPrefix(table + ".") }, "\(table) has no index to defer")
            }
        }

        /// The fixture's database file, opened read-only.
        static func open(_ fixture: CompareFixture) throws -> DatabaseQueue {
            var config = Configuration()
            config.readonly = true
            return try DatabaseQueue(path: fixture.url.path, configuration: config)
        }

        /// Index name → normalised SQL, keyed "table.index".
        static func indexes(_ db: Database) throws -> [String: String] {
            var out: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT tbl_name, name, sql FROM sqlite_master WHERE type = 'index'") {
                let sql: String? = row["sql"]
                out[(row["tbl_name"] as String) + "." + (row["name"] as String)] = sql.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") } ?? "(constraint)"
            }
            return out
        }

        /// The check of the finished file passes a sound file and refuses a dangling reference, a
        /// damaged page, an index that is not its table's, pages no b-tree owns and pages two own,
        /// whichever of its two threads finds the fault; with free pages it falls back on
        /// `quick_check`.
        @Test func finishedFileCheck() throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            func database(_ name: String, _ sql: String) throws -> String {
                let path = dir.url.appendingPathComponent(name).path
                let queue = try DatabaseQueue(path: path)
                try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA foreign_keys = OFF; " + sql) }
                try queue.close()
                return path
            }
            let tables = """
                CREATE TABLE taxa (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES taxa(id), name TEXT);
                CREATE INDEX idx_name ON taxa(name);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
                INSERT INTO taxa SELECT i, CASE WHEN i > 1 THEN i / 2 END, printf('taxon %08d', i * 7919 % 20000) FROM n;
                """
            let sound = try database("sound.sqlite", tables)
            try BuiltDatabaseCheck(path: sound, cache: DatabaseBuilder.pageCache).run()

            let dangling = try database("dangling.sqlite", tables + "UPDATE taxa SET parent_id = 99999 WHERE id IN (10, 11);")
            let issue = #expect(throws: SourceIssue.self) { try BuiltDatabaseCheck(path: dangling, cache: DatabaseBuilder.pageCache).run() }
            #expect(issue?.message == "foreign key check failed: 2 dangling references")

            // Overwrite the middle of the file: cells of the table or of its index.
            let damaged = try database("damaged.sqlite", tables)
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: damaged))
            let size = try handle.seekToEnd()
            try handle.seek(toOffset: size / 2)
            try handle.write(contentsOf: Data(repeating: 0x5A, count: 3_000))
            try handle.close()
            #expect(throws: (any Error).self) { try BuiltDatabaseCheck(path: damaged, cache: DatabaseBuilder.pageCache).run() }

            // What only a table's own check finds: an index whose entries are not its table's. The
            // table is not the largest, so the thread that reaches it is the one that got there
            // first. And what only quick_check finds: pages no b-tree owns.
            let other = "CREATE TABLE other (id INTEGER PRIMARY KEY, code TEXT); CREATE INDEX idx_code ON other(code); INSERT INTO other SELECT id, 'c' || (id % 97) FROM taxa WHERE id <= 3000;"
            let mismatched = try database("mismatched.sqlite", tables + other + "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = 'CREATE INDEX idx_code ON other(id)' WHERE name = 'idx_code';")
            let wrongIndex = #expect(throws: SourceIssue.self) { try BuiltDatabaseCheck(path: mismatched, cache: DatabaseBuilder.pageCache).run() }
            #expect(wrongIndex?.message.hasPrefix("integrity check failed: ") == true)
            #expect(wrongIndex?.message.contains("idx_code") == true)
            let orphaned = try database("orphaned.sqlite", tables + other + "PRAGMA writable_schema = ON; DELETE FROM sqlite_schema WHERE tbl_name = 'other';")
            let neverUsed = #expect(throws: SourceIssue.self) { try BuiltDatabaseCheck(path: orphaned, cache: DatabaseBuilder.pageCache).run() }
            #expect(neverUsed?.message.contains("pages are never used") == true)
            // Two tables on one b-tree: its pages counted twice, the other's never.
            let shared = try database("shared.sqlite", tables + other + "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET rootpage = (SELECT rootpage FROM sqlite_schema WHERE name = 'idx_name') WHERE name = 'idx_code';")
            let twice = #expect(throws: SourceIssue.self) { try BuiltDatabaseCheck(path: shared, cache: DatabaseBuilder.pageCache).run() }
            #expect(twice?.message.contains("pages are used more than once") == true)
            // Free pages: quick_check accounts for them, and a sound file passes; orphans are
            // still found, in SQLite's words.
            let freed = try database("freed.sqlite", tables + "DELETE FROM taxa WHERE id > 15000;")
            let freePages = try DatabaseQueue(path: freed).read { db in try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0 }
            #expect(freePages > 0)
            try BuiltDatabaseCheck(path: freed, cache: DatabaseBuilder.pageCache).run()
            let freedOrphans = try database("freed-orphans.sqlite", tables + other + "DELETE FROM taxa WHERE id > 15000; PRAGMA writable_schema = ON; DELETE FROM sqlite_schema WHERE tbl_name = 'other';")
            let quick = #expect(throws: SourceIssue.self) { try BuiltDatabaseCheck(path: freedOrphans, cache: DatabaseBuilder.pageCache).run() }
            #expect(quick?.message.contains("is never used") == true)
        }

        /// The checks cover every ordinary table of a built database, FTS5's shadow tables
        /// included and virtual tables left out, the largest (by rows times index entries) first.
        @Test func checkedTablesLargestFirst() throws {
            let fixture = try CompareFixture.make(.forest, count: 2_000, seed: 11, topN: 10)
            defer { fixture.remove() }
            let queue = try Self.open(fixture)
            let tables = try queue.read { db in try IntegrityCheck.tablesLargestFirst(db) }
            let ordinary = try queue.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'")
            }
            #expect(Set(tables) == Set(ordinary + ["sqlite_schema"]))
            #expect(tables.count == ordinary.count + 1)
            #expect(tables.last == "sqlite_schema")
            #expect(tables.contains("fts_taxa_data") && tables.contains("sqlite_stat1"))
            #expect(!tables.contains("fts_taxa") && !tables.contains("fts_words"))
            #expect(tables.first == "top_n_relatives")
            #expect(tables.firstIndex(of: "taxa")! < tables.firstIndex(of: "refs")!)
        }
    }
}
