import Foundation
import STOLRPC

// Hostile content: a valid taxonomy database (the end-to-end fixture) with one value of one
// column of one table changed, as a buggy third-party pipeline might write it, a tree that is not
// a tree, or a table definition that is not the schema's. Each is made with SQL from the fixture
// and signed; the import owes a refusal of the exact kind, with a detail naming what is wrong.

extension HostileFiles {
    /// The fixture's Panthera leo, Panthera tigris and its one root, in SQL.
    static let lion = "(SELECT id FROM taxa WHERE scientific_name = 'Panthera leo')"
    static let tiger = "(SELECT id FROM taxa WHERE scientific_name = 'Panthera tigris')"

    /// Every wrong value of every column, every broken tree, and every changed definition.
    func contentCases() -> [HostileCase] {
        var cases: [HostileCase] = []
        let writer = self.writer
        let base = databaseURL
        func add(_ name: String, _ expected: String = "databaseCorrupt", detail: String, ci: Bool = false, _ sql: String) {
            cases.append(HostileCase(
                family: .content, kind: .database, name: name,
                make: { .bytes(writer.envelope(.database, version: 1, payload: Deflate.gzipStored(try self.variant(of: base, sql: "PRAGMA ignore_check_constraints = ON; " + sql)))) },
                expectedKind: expected, detail: detail, representative: ci))
        }
        let lion = Self.lion, tiger = Self.tiger
        /// Sets `table.column` to `value` in the row `condition` picks.
        func value(_ table: String, _ column: String, _ value: String, _ label: String, where condition: String, ci: Bool = false) {
            add("\(table).\(column) \(label)", detail: "\(table).\(column) holds", ci: ci, "UPDATE \(table) SET \(column) = \(value) WHERE \(condition);")
        }
        let blob = "x'4c696f6e'"
        let invalidUTF8 = "CAST(x'4cff6f6e' AS TEXT)"

        // taxa: every column, each way it can be wrong.
        let aLion = "id = \(lion)"
        value("taxa", "parent_id", "'abc'", "as text", where: aLion, ci: true)
        value("taxa", "parent_id", "9007199254740992", "of 2^53 (outside the protocol's ids)", where: aLion)
        value("taxa", "rank", "'bogus'", "'bogus'", where: aLion, ci: true)
        value("taxa", "rank", blob, "as a blob", where: aLion)
        value("taxa", "scientific_name", blob, "as a blob", where: aLion)
        value("taxa", "scientific_name", invalidUTF8, "not UTF-8 (a root's)", where: "parent_id IS NULL", ci: true)
        value("taxa", "scientific_name", "'Panthera' || char(0) || ' leo'", "holding NUL", where: aLion, ci: true)
        value("taxa", "author", blob, "as a blob", where: aLion)
        value("taxa", "year", "'abc'", "'abc'", where: aLion, ci: true)
        value("taxa", "year", "'1758?'", "'1758?'", where: aLion)
        value("taxa", "year", "x'0f'", "as a blob", where: aLion)
        value("taxa", "year", "1758.5", "as a real", where: aLion)
        value("taxa", "status", "'weird'", "'weird'", where: aLion, ci: true)
        value("taxa", "status", blob, "as a blob", where: aLion)
        value("taxa", "conservation", "'XX'", "'XX'", where: aLion)
        value("taxa", "conservation", blob, "as a blob", where: aLion)
        value("taxa", "child_count", "'many'", "'many'", where: aLion, ci: true)
        add("taxa.child_count that is not the number of children", detail: "taxa.child_count holds 3 where the taxon has 0 children", "UPDATE taxa SET child_count = 3 WHERE id = \(lion);")
        for id in ["9223372036854775807", "0", "-5"] {
            add("taxa.id \(id) (outside the protocol's ids)", detail: "taxa.id holds the integer \(id)", ci: id == "0",
                "UPDATE taxa SET id = \(id) WHERE scientific_name = 'Testus species25';")
        }

        // names
        let aName = "id = (SELECT min(id) FROM names WHERE taxon_id = \(lion))"
        value("names", "taxon_id", "'abc'", "as text", where: aName)
        value("names", "name", blob, "as a blob", where: aName, ci: true)
        value("names", "name", "'Li' || char(0) || 'on'", "holding NUL", where: aName)
        value("names", "name", invalidUTF8, "not UTF-8", where: aName)
        value("names", "lang", blob, "as a blob", where: aName)
        value("names", "name_type", "'bogus'", "'bogus'", where: aName)
        value("names", "is_preferred", "'yes'", "'yes'", where: aName, ci: true)
        value("names", "is_preferred", "2", "2", where: aName)

        // refs and traits
        let aRef = "id = (SELECT min(id) FROM refs)", aTrait = "id = (SELECT min(id) FROM traits)"
        value("refs", "taxon_id", "'x'", "as text", where: aRef)
        value("refs", "citation", blob, "as a blob", where: aRef, ci: true)
        value("refs", "url", blob, "as a blob", where: aRef)
        value("refs", "ref_type", "'bogus'", "'bogus'", where: aRef)
        value("traits", "taxon_id", "'x'", "as text", where: aTrait)
        value("traits", "trait_key", blob, "as a blob", where: aTrait)
        value("traits", "trait_value", blob, "as a blob", where: aTrait, ci: true)
        value("traits", "unit", blob, "as a blob", where: aTrait)
        value("traits", "source_ref", "'x'", "as text", where: aTrait)

        // The Euler tour, its first occurrences and the stored relatives.
        value("euler_tour", "taxon_id", "'x'", "as text", where: "seq = (SELECT min(seq) FROM euler_tour)")
        value("euler_tour", "depth", "'x'", "as text", where: "seq = (SELECT max(seq) FROM euler_tour)")
        value("first_occurrence", "seq", "'x'", "as text", where: "taxon_id = \(lion)")
        let aRelative = "rowid = (SELECT min(rowid) FROM top_n_relatives)"
        for column in ["taxon_id", "rank_order", "lca_id", "lca_depth", "distance"] {
            value("top_n_relatives", column, "'x'", "as text", where: aRelative)
        }
        value("top_n_relatives", "relative_id", "'abc'", "'abc'", where: aRelative, ci: true)

        // dataset_info: a value that is not text once made every start of the engine fail.
        value("dataset_info", "value", "x'ff'", "x'ff' (the attribution)", where: "key = 'attribution'", ci: true)
        value("dataset_info", "key", "x'01'", "as a blob", where: "key = 'license'")

        // search_names and schema_version
        let aSearchName = "id = (SELECT min(id) FROM search_names WHERE taxon_id = \(lion))"
        value("search_names", "taxon_id", "'x'", "as text", where: aSearchName)
        value("search_names", "name", blob, "as a blob", where: aSearchName)
        value("search_names", "folded", blob, "as a blob", where: aSearchName)
        value("search_names", "match_type", "'bogus'", "'bogus'", where: aSearchName)
        value("search_names", "lang", blob, "as a blob", where: aSearchName)
        value("schema_version", "applied_at", blob, "as a blob", where: "1")
        add("schema_version with two rows", detail: "schema_version holds 2 rows", "INSERT INTO schema_version VALUES (1, '2026-01-01');")

        // The full-text indexes.
        add("fts_words_content.c0 as a blob", detail: "fts_words", ci: true, "UPDATE fts_words_content SET c0 = \(blob) WHERE id = (SELECT min(id) FROM fts_words_content);")
        add("an FTS5 leaf of fts_taxa zeroed", detail: "fts_taxa", ci: true,
            "UPDATE fts_taxa_data SET block = zeroblob(length(block)) WHERE id = (SELECT max(id) FROM fts_taxa_data);")
        add("fts_taxa_config.version 99", detail: "fts_taxa_config", ci: true, "UPDATE fts_taxa_config SET v = 99 WHERE k = 'version';")

        // Trees that are not trees.
        add("a parent cycle (lion ↔ tiger)", detail: "cycle", ci: true,
            "UPDATE taxa SET parent_id = \(tiger) WHERE id = \(lion); UPDATE taxa SET parent_id = (SELECT id FROM taxa WHERE scientific_name = 'Panthera leo') WHERE scientific_name = 'Panthera tigris';")
        add("a taxon that is its own parent", detail: "cycle", "UPDATE taxa SET parent_id = id WHERE id = \(lion);")
        add("a parent that names no taxon", detail: "names no taxon", ci: true, "UPDATE taxa SET parent_id = 424242424242 WHERE id = \(lion);")
        add("a chain 100,000 deep", detail: "levels below its root", ci: true, Self.chain(100_000))
        add("an Euler tour of another tree (the lion's visits given to the tiger)", detail: "euler_tour does not walk the tree",
            "UPDATE euler_tour SET taxon_id = \(tiger) WHERE taxon_id = \(lion);")
        add("a first occurrence that is not the first visit", detail: "first_occurrence.seq holds", "UPDATE first_occurrence SET seq = seq + 1 WHERE taxon_id = \(lion);")

        // Definitions that are not the schema's, and tables outside it.
        let schema = "incompatibleSchema"
        /// Replaces `old` with `new` in `table`'s stored SQL; the script fails (an integer overflow)
        /// when `old` is not there, so a case never tests an unchanged file by mistake.
        func definition(_ name: String, detail: String, ci: Bool = false, _ table: String, _ old: String, _ new: String) {
            let quotedOld = old.replacingOccurrences(of: "'", with: "''"), quotedNew = new.replacingOccurrences(of: "'", with: "''")
            add(name, schema, detail: detail, ci: ci, """
                SELECT CASE WHEN instr((SELECT sql FROM sqlite_master WHERE name = '\(table)'), '\(quotedOld)') > 0 THEN 1 ELSE abs(-9223372036854775807 - 1) END;
                PRAGMA writable_schema = ON;
                UPDATE sqlite_master SET sql = replace(sql, '\(quotedOld)', '\(quotedNew)') WHERE name = '\(table)';
                """)
        }
        definition("a CHECK constraint removed (taxa.status)", detail: "table taxa", ci: true, "taxa", "CHECK (status IN ('accepted','synonym','doubtful'))", "")
        definition("a collation added (names.name COLLATE NOCASE)", detail: "table names", "names", "name        TEXT    NOT NULL,", "name        TEXT    NOT NULL COLLATE NOCASE,")
        definition("a default changed (taxa.status DEFAULT 'synonym')", detail: "table taxa", "taxa", "DEFAULT 'accepted'", "DEFAULT 'synonym'")
        add("a 20 MB table named sqlite_stat_evil", schema, detail: "sqlite_stat_evil", ci: true, """
            CREATE TABLE hostile_evil(x); INSERT INTO hostile_evil VALUES (zeroblob(20000000));
            PRAGMA writable_schema = ON;
            UPDATE sqlite_master SET name = 'sqlite_stat_evil', tbl_name = 'sqlite_stat_evil', sql = 'CREATE TABLE sqlite_stat_evil(x)' WHERE name = 'hostile_evil';
            """)
        add("a table named sqlite_sequence", schema, detail: "sqlite_sequence", """
            CREATE TABLE hostile_sequence(name, seq);
            PRAGMA writable_schema = ON;
            UPDATE sqlite_master SET name = 'sqlite_sequence', tbl_name = 'sqlite_sequence', sql = 'CREATE TABLE sqlite_sequence(name,seq)' WHERE name = 'hostile_sequence';
            """)
        add("sqlite_stat1 of 10,000 rows", schema, detail: "sqlite_stat1 holds", """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
            INSERT INTO sqlite_stat1 SELECT 'taxa', 'idx_taxa_parent', '57 1' FROM n;
            """)
        add("sqlite_stat1 defined with another column", schema, detail: "sqlite_stat1 is not the statistics table", """
            PRAGMA writable_schema = ON;
            UPDATE sqlite_master SET sql = 'CREATE TABLE sqlite_stat1(tbl,idx,stat,extra)' WHERE name = 'sqlite_stat1';
            """)
        return cases
    }

    /// SQL hanging a chain of `depth` unranked taxa below the fixture's first root, each the only child
    /// of the one before, with consistent child counts.
    static func chain(_ depth: Int) -> String {
        """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(depth))
        INSERT INTO taxa (id, parent_id, rank, scientific_name, status, child_count)
        SELECT 8000000000 + i, CASE i WHEN 1 THEN (SELECT min(id) FROM taxa WHERE parent_id IS NULL) ELSE 7999999999 + i END,
               NULL, 'Chain ' || i, 'accepted', i < \(depth) FROM n;
        UPDATE taxa SET child_count = child_count + 1 WHERE id = (SELECT min(id) FROM taxa WHERE parent_id IS NULL);
        """
    }
}
