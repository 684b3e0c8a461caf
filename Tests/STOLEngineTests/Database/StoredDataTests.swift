import Foundation
import GRDB
import STOLTestSupport
import Testing

@testable import STOLEngine

/// The defensive reading layer and the content checks of taxonomy databases: `StoredText`,
/// `StoredRow`, `StoredValueCheck`, `TaxonomyTreeCheck`, `PlannerStatistics` and
/// `TableDefinition`, each on small databases made for the case.
@Suite struct StoredDataTests {
    /// A schema v1 database (every extension) with a small tree: a root, a genus, two species.
    static func taxonomy(_ dir: TemporaryDirectory, _ name: String = "t.sqlite", edit: String = "") throws -> DatabaseQueue {
        let path = dir.url.appendingPathComponent(name).path
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: try Schema.sql())
            try db.execute(sql: """
                INSERT INTO taxa (id, parent_id, rank, scientific_name, author, year, status, conservation, child_count) VALUES
                    (1, NULL, 'domain', 'Eukaryota', NULL, NULL, 'accepted', NULL, 1),
                    (2, 1, 'genus', 'Panthera', NULL, NULL, 'accepted', NULL, 2),
                    (3, 2, 'species', 'Panthera leo', 'Linnaeus', 1758, 'accepted', 'VU', 0),
                    (4, 2, 'species', 'Panthera tigris', 'Linnaeus', 1758, 'accepted', 'EN', 0);
                INSERT INTO names (id, taxon_id, name, lang, name_type, is_preferred) VALUES
                    (1, 3, 'Lion', 'en', 'common', 1), (2, 3, 'Felis leo', 'la', 'synonym', 0), (3, 4, 'Tiger', 'en', 'common', 1);
                INSERT INTO refs (id, taxon_id, citation, url, ref_type) VALUES (1, 3, 'Linnaeus 1758', NULL, 'taxonomy');
                INSERT INTO traits (id, taxon_id, trait_key, trait_value, unit, source_ref) VALUES (1, 3, 'diet', 'carnivore', NULL, 1);
                INSERT INTO dataset_info (key, value) VALUES ('name', 'Test');
                PRAGMA ignore_check_constraints = ON;
                """ + edit)
        }
        return queue
    }

    @Test func textIsValidUTF8WithoutNUL() {
        func problem(_ bytes: [UInt8]) -> StoredText.Problem? { bytes.withUnsafeBufferPointer { StoredText.problem($0.baseAddress, count: $0.count) } }
        #expect(problem(Array("Panthera leo, Löwe, 狮子, 🦁".utf8)) == nil)
        #expect(problem(Array(String(repeating: "ascii only ", count: 9).utf8)) == nil)
        #expect(problem([]) == nil)
        #expect(problem(Array("Panthera".utf8) + [0] + Array("leo".utf8)) == .nul(offset: 8))
        #expect(problem([0x4C, 0xFF]) == .invalidUTF8(offset: 1))
        #expect(problem([0xC0, 0x80]) == .invalidUTF8(offset: 0), "an overlong NUL")
        #expect(problem([0xED, 0xA0, 0x80]) == .invalidUTF8(offset: 0), "a surrogate")
        #expect(problem([0xF4, 0x90, 0x80, 0x80]) == .invalidUTF8(offset: 0), "above U+10FFFF")
        #expect(problem(Array("abcdefgh".utf8) + [0xE2, 0x82]) == .invalidUTF8(offset: 8), "cut short")
        #expect(problem(Array("abcdefghijklmnop".utf8) + [0x80]) == .invalidUTF8(offset: 16), "a lone continuation byte")
    }

    /// Every wrong value a read meets is a `DataFault` naming the table, column and rowid.
    @Test(arguments: [
        ("UPDATE taxa SET year = 'abc' WHERE id = 3", "taxa.year holds text 'abc' where the schema has an integer (taxa rowid 3)"),
        ("UPDATE taxa SET year = x'00' WHERE id = 3", "taxa.year holds a blob of 1 bytes where the schema has an integer (taxa rowid 3)"),
        ("UPDATE taxa SET scientific_name = CAST(x'ff' AS TEXT) WHERE id = 3", "taxa.scientific_name holds text that is not valid UTF-8 (at byte 0) where the schema has text (taxa rowid 3)"),
        ("UPDATE taxa SET scientific_name = 'Panthera' || char(0) || 'leo' WHERE id = 3", "taxa.scientific_name holds text holding a NUL character (at byte 8) where the schema has text (taxa rowid 3)"),
        ("UPDATE taxa SET rank = 'bogus' WHERE id = 3", "taxa.rank holds 'bogus' where the schema has one of 'domain', 'kingdom', 'phylum', 'class', 'order', 'family', 'genus', 'species', 'subspecies', 'variety' (taxa rowid 3)"),
        ("UPDATE taxa SET status = 'weird' WHERE id = 3", "taxa.status holds 'weird' where the schema has one of 'accepted', 'synonym', 'doubtful' (taxa rowid 3)"),
        ("UPDATE taxa SET child_count = 'many' WHERE id = 3", "taxa.child_count holds text 'many' where the schema has an integer (taxa rowid 3)"),
    ])
    func aWrongValueIsAFaultNamingItsRow(edit: String, detail: String) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.taxonomy(dir, edit: edit).close()
        let database = try TaxonomyDatabase(url: dir.url.appendingPathComponent("t.sqlite"), source: .reference)
        let store = TaxonomyStore(database: database)
        await #expect(throws: DatabaseDamage(source: .reference, detail: detail)) { try await store.taxon(3) }
        await #expect(throws: DatabaseDamage.self) { _ = try await store.children(.init(parentID: 2, limit: 10)) }
        #expect(database.damage?.detail == detail)
        // The other taxa still read.
        #expect(try await store.taxon(4).scientificName == "Panthera tigris")
    }

    @Test func namesTraitsAndReferencesAreReadDefensively() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.taxonomy(dir, edit: """
            UPDATE names SET is_preferred = 'yes' WHERE id = 1;
            UPDATE traits SET trait_value = x'ff' WHERE id = 1;
            UPDATE refs SET citation = 7 WHERE id = 1;
            """).close()
        let store = TaxonomyStore(database: try TaxonomyDatabase(url: dir.url.appendingPathComponent("t.sqlite"), source: .reference))
        await #expect(throws: DatabaseDamage(source: .reference, detail: "names.is_preferred holds text 'yes' where the schema has an integer (names rowid 1)")) {
            _ = try await store.names(3)
        }
        await #expect(throws: DatabaseDamage(source: .reference, detail: "traits.trait_value holds a blob of 1 bytes where the schema has text (traits rowid 1)")) {
            _ = try await store.traits(3)
        }
        // A TEXT column turns the integer 7 into text; the reference reads.
        #expect(try await store.references(3).first?.citation == "7")
    }

    @Test func aLineageThatReachesNoRootIsAFault() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.taxonomy(dir, "cycle.sqlite", edit: "UPDATE taxa SET parent_id = 4 WHERE id = 3; UPDATE taxa SET parent_id = 3 WHERE id = 4;").close()
        try Self.taxonomy(dir, "orphan.sqlite", edit: "UPDATE taxa SET parent_id = 99 WHERE id = 2;").close()
        let cycle = TaxonomyStore(database: try TaxonomyDatabase(url: dir.url.appendingPathComponent("cycle.sqlite"), source: .reference))
        await #expect(throws: DatabaseDamage(source: .reference, detail: DataFault.lineage(tooDeep: 3).detail)) { _ = try await cycle.ancestors(3) }
        let orphan = TaxonomyStore(database: try TaxonomyDatabase(url: dir.url.appendingPathComponent("orphan.sqlite"), source: .reference))
        await #expect(throws: DatabaseDamage(source: .reference, detail: DataFault.lineage(of: 3, orphan: 2, parent: 99).detail)) { _ = try await orphan.ancestors(3) }
        await #expect(throws: DatabaseDamage.self) { _ = try await orphan.ancestors(2) }
    }

    @Test func aDatasetInfoValueThatIsNotTextRefusesTheOpen() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Self.taxonomy(dir, edit: "UPDATE dataset_info SET value = x'ff' WHERE key = 'name';").close()
        #expect(throws: DatabaseOpenError.corrupt("dataset_info.value holds a blob of 1 bytes where the schema has text")) {
            try TaxonomyDatabase(url: dir.url.appendingPathComponent("t.sqlite"), source: .reference)
        }
    }

    static func valueProblems(_ edit: String) throws -> [String] {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let queue = try taxonomy(dir, edit: edit)
        return try queue.read { db in try TaxonomyContentCheck.problems(db) }
    }

    @Test func theContentCheckNamesTableColumnAndRow() throws {
        #expect(try Self.valueProblems("") == [])
        #expect(try Self.valueProblems("UPDATE taxa SET year = 1758.5 WHERE id = 3") == ["taxa.year holds the real 1758.5 where the schema has an integer or NULL (taxa rowid 3)"])
        #expect(try Self.valueProblems("UPDATE taxa SET conservation = 'XX' WHERE id = 4") == [
            "taxa.conservation holds text 'XX' where the schema has one of 'EX', 'EW', 'CR', 'EN', 'VU', 'NT', 'LC', 'DD', 'NE' or NULL (taxa rowid 4)"])
        #expect(try Self.valueProblems("UPDATE names SET is_preferred = 2 WHERE id = 3") == ["names.is_preferred holds the integer 2 where the schema has 0 or 1 (names rowid 3)"])
        #expect(try Self.valueProblems("UPDATE dataset_info SET value = x'ff'") == ["dataset_info.value holds a blob of 1 bytes where the schema has valid UTF-8 text without NUL (dataset_info key 'name')"])
        #expect(try Self.valueProblems("INSERT INTO schema_version VALUES (1, '2026')") == ["schema_version holds 2 rows; the schema has exactly one"])
        for id in ["9223372036854775807", "0", "-5"] {
            let found = try Self.valueProblems("UPDATE taxa SET id = \(id) WHERE id = 4")
            #expect(found.first == "taxa.id holds the integer \(id) where the schema has a taxon id (an integer from 1 to 2^53 - 1) (taxa rowid \(id))", "\(found)")
        }
    }

    @Test func theTreeCheckFindsCyclesOrphansDepthAndCounts() throws {
        #expect(try Self.valueProblems("UPDATE taxa SET parent_id = 3 WHERE id = 3") == ["taxa.parent_id: taxa rowid 3 is not reachable from a root; its parents form a cycle (3 → 3)"])
        let cycle = try Self.valueProblems("UPDATE taxa SET parent_id = 4 WHERE id = 3; UPDATE taxa SET parent_id = 3 WHERE id = 4; UPDATE taxa SET child_count = 1 WHERE id IN (3, 4, 2)")
        #expect(cycle.count == 1 && cycle[0].hasPrefix("taxa.parent_id: taxa rowid 3 is not reachable from a root; its parents form a cycle (3 → 4 → 3)"), "\(cycle)")
        #expect(try Self.valueProblems("UPDATE taxa SET parent_id = 99 WHERE id = 4; UPDATE taxa SET child_count = 1 WHERE id = 2") == ["taxa.parent_id holds 99, which names no taxon (taxa rowid 4)"])
        #expect(try Self.valueProblems("UPDATE taxa SET child_count = 5 WHERE id = 2") == ["taxa.child_count holds 5 where the taxon has 2 children (taxa rowid 2)"])
        let chain = """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(TaxonomyLimits.maxDepth + 1))
            INSERT INTO taxa (id, parent_id, scientific_name, status, child_count) SELECT 100 + i, CASE i WHEN 1 THEN 1 ELSE 99 + i END, 'Chain ' || i, 'accepted', i < \(TaxonomyLimits.maxDepth + 1) FROM n;
            UPDATE taxa SET child_count = 2 WHERE id = 1;
            """
        #expect(try Self.valueProblems(chain) == ["taxa.parent_id: taxa rowid \(100 + TaxonomyLimits.maxDepth + 1) is \(TaxonomyLimits.maxDepth + 1) levels below its root; the engine serves lineages of at most \(TaxonomyLimits.maxDepth)"])
    }

    /// The statistics worked out from the integrity check's passes are ANALYZE's, row for row, on
    /// tables of every shape; a file whose statistics differ, or that has none, does not match.
    @Test func plannerStatisticsAreANALYZEs() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sql = """
            CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b INTEGER, c TEXT);
            CREATE INDEX t_a ON t(a COLLATE NOCASE);
            CREATE INDEX t_ab ON t(a, b);
            CREATE UNIQUE INDEX t_c ON t(c);
            CREATE TABLE plain (x);
            CREATE TABLE empty (y INTEGER PRIMARY KEY, z);
            CREATE INDEX empty_z ON empty(z);
            CREATE TABLE kv (k TEXT PRIMARY KEY, v) WITHOUT ROWID;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
            INSERT INTO t SELECT i, CASE i % 7 WHEN 0 THEN NULL WHEN 1 THEN 'Alpha' ELSE 'alpha ' || (i % 40) END, i % 3, 'c' || i FROM n;
            INSERT INTO plain VALUES (1), (2), (2);
            INSERT INTO kv VALUES ('a', 1), ('b', 2);
            ANALYZE;
            """
        let queue = try IndexContentChecking.database(dir, "s.sqlite", sql)
        try queue.close()
        let path = dir.url.appendingPathComponent("s.sqlite").path
        func matches() throws -> Bool {
            let statistics = PlannerStatistics()
            #expect(try IntegrityCheck(path: path, cache: "PRAGMA cache_size = -2000;", statistics: statistics).problems() == [])
            return try DatabaseQueue(path: path).read { db in try statistics.matches(db) }
        }
        #expect(try matches())
        let editor = try DatabaseQueue(path: path)
        try editor.writeWithoutTransaction { db in try db.execute(sql: "UPDATE sqlite_stat1 SET stat = '3000 3000' WHERE idx = 't_a'") }
        #expect(try !matches(), "tampered")
        try editor.writeWithoutTransaction { db in try PlannerStatistics.recompute(db) }
        #expect(try matches(), "recomputed")
        try editor.writeWithoutTransaction { db in try db.execute(sql: "DROP TABLE sqlite_stat1") }
        #expect(try !matches(), "none")
        try editor.close()
    }

    @Test func tableDefinitionsIgnoreLayoutAndCommentsButNotConstraints() throws {
        let spec = try #require(TableDefinition("""
            CREATE TABLE taxa (
                id INTEGER PRIMARY KEY,  -- the id
                status TEXT NOT NULL DEFAULT 'accepted' /* a comment */ CHECK (status IN ('accepted','synonym'))
            )
            """))
        #expect(TableDefinition("create table if not exists \"taxa\"(id integer primary key, status text not null default 'accepted' check(status in ('accepted','synonym')))") == spec)
        #expect(TableDefinition("CREATE TABLE taxa (id INTEGER PRIMARY KEY, status TEXT NOT NULL DEFAULT 'accepted')") != spec, "a CHECK removed")
        #expect(TableDefinition("CREATE TABLE taxa (id INTEGER PRIMARY KEY, status TEXT NOT NULL DEFAULT 'synonym' CHECK (status IN ('accepted','synonym')))") != spec, "another default")
        #expect(TableDefinition("CREATE TABLE taxa (id INTEGER PRIMARY KEY, status TEXT NOT NULL COLLATE NOCASE DEFAULT 'accepted' CHECK (status IN ('accepted','synonym')))") != spec, "a collation")
        #expect(spec.parts.count == 2 && spec.tail.isEmpty)
        #expect(TableDefinition("CREATE TABLE kv (k TEXT PRIMARY KEY, v) WITHOUT ROWID")?.tail == ["without", "rowid"])
    }

    /// The engine's `taxa.rank` adds the ranks below species and may be NULL; a file may hold the
    /// specification's definition (eight ranks, NOT NULL) or the engine's, but no other set.
    @Test func theRankCheckMayBeTheSpecificationsOrTheEngines() throws {
        func taxa(_ rank: String) -> ImportSchema.Object {
            ImportSchema.Object(type: "table", name: "taxa", sql: "CREATE TABLE taxa (id INTEGER PRIMARY KEY, \(rank))")
        }
        let eight = "'domain','kingdom','phylum','class','order','family','genus','species'"
        let engine = taxa("rank TEXT CHECK (rank IN (\(eight),'subspecies','variety'))")
        try ImportSchema.checkDefinition(engine, expected: engine)
        try ImportSchema.checkDefinition(taxa("rank TEXT NOT NULL CHECK (rank IN (\(eight)))"), expected: engine)
        try ImportSchema.checkDefinition(taxa("rank TEXT CHECK (rank IN (\(eight)))"), expected: engine)
        try ImportSchema.checkDefinition(taxa("rank TEXT NOT NULL CHECK (rank IN (\(eight),'subspecies','variety'))"), expected: engine)
        #expect(throws: ReferenceError.self, "a rank missing") {
            try ImportSchema.checkDefinition(taxa("rank TEXT CHECK (rank IN ('domain','kingdom','phylum','class','order','family','species'))"), expected: engine)
        }
        #expect(throws: ReferenceError.self, "a rank added") {
            try ImportSchema.checkDefinition(taxa("rank TEXT CHECK (rank IN (\(eight),'strain'))"), expected: engine)
        }
        #expect(throws: ReferenceError.self, "only one of the two added") {
            try ImportSchema.checkDefinition(taxa("rank TEXT CHECK (rank IN (\(eight),'variety'))"), expected: engine)
        }
    }
}
