import GRDB
import GRDBSQLite

/// Checks every value of a taxonomy database's tables against the schema, as the engine will read
/// them (`StoredRow`): the storage class each column declares (an INTEGER column holds integers,
/// a TEXT column text), NULL only where the schema allows it, text that is valid UTF-8 without
/// NUL, values inside the schema's sets (ranks, statuses, IUCN codes, name, reference and match
/// types, `is_preferred` 0 or 1), and taxon ids inside the protocol's range (1 to 2^53 − 1).
/// SQLite's column affinity stops none of these, and the specification's tables are not STRICT.
///
/// One pass over each table, in rowid order; a problem names the table, the column and an example
/// rowid (the key, for `dataset_info`, which has no rowid). Used by `database/import` (inside the
/// integrity check, per table) and when `--database` opens a file.
enum StoredValueCheck {
    /// What a column may hold.
    enum Kind: Equatable {
        case integer
        /// An integer in `TaxonomyLimits.taxonIDs`.
        case taxonID
        /// 0 or 1.
        case flag
        case text
        /// Text, one of these values.
        case member([String])
    }

    struct Rule: Equatable {
        var column: String
        var kind: Kind
        var nullable: Bool
    }

    /// Text columns whose values come from a set (the schema's CHECK constraints, plus the IUCN
    /// codes its comment lists).
    static let sets: [String: [String]] = [
        "taxa.rank": Rank.allCases.map(\.rawValue),
        "taxa.status": TaxonStatus.allCases.map(\.rawValue),
        "taxa.conservation": ConservationStatus.allCases.map(\.rawValue),
        "names.name_type": NameType.allCases.map(\.rawValue),
        "refs.ref_type": ["taxonomy", "ecology", "morphology", "conservation", "other"],
        "search_names.match_type": ["scientific", "common", "synonym"],
    ]

    /// Integer columns holding taxon ids: the ones the schema declares as references to `taxa`,
    /// and `search_names.taxon_id` (an extension's, without a declared reference).
    static let taxonIDs: Set<String> = {
        var out: Set<String> = ["taxa.id", "search_names.taxon_id"]
        if let queue = try? DatabaseQueue(), let sql = try? Schema.sql() {
            let found = try? queue.write { db -> [String] in
                try db.execute(sql: sql)
                return try String.fetchAll(db, sql: """
                    SELECT m.name || '.' || f."from" FROM sqlite_master m, pragma_foreign_key_list(m.name) f
                    WHERE m.type = 'table' AND f."table" = 'taxa'
                    """)
            }
            out.formUnion(found ?? [])
        }
        return out
    }()

    /// Columns FTS5 keeps that the engine reads itself (`VocabularyWords`): text.
    static let shadowColumns: [String: [Rule]] = [
        "fts_words_content": [Rule(column: "c0", kind: .text, nullable: false)],
    ]

    /// The rules of `table`'s columns that the schema has and the file holds (`present`); none
    /// for a table the schema does not model.
    static func rules(_ table: String, present: Set<String>) -> [Rule] {
        if let shadow = shadowColumns[table] { return shadow.filter { present.contains($0.column) } }
        guard let columns = ImportSchema.database?.columns[table] else { return [] }
        return columns.compactMap { column in
            guard present.contains(column.name) else { return nil }
            let name = "\(table).\(column.name)"
            // An INTEGER PRIMARY KEY is the rowid: always an integer.
            let isRowid = column.primaryKey == 1 && column.type == "INTEGER" && columns.filter { $0.primaryKey > 0 }.count == 1
            if isRowid && !taxonIDs.contains(name) { return nil }
            let kind: Kind
            if let set = sets[name] {
                kind = .member(set)
            } else if name == "names.is_preferred" {
                kind = .flag
            } else if taxonIDs.contains(name) {
                kind = .taxonID
            } else {
                switch column.type {
                case "INTEGER": kind = .integer
                case "TEXT": kind = .text
                default: return nil
                }
            }
            // A column the schema relaxes (`taxa.rank`) may be NULL however the file declares it.
            let nullable = !column.notNull && column.primaryKey == 0
            return Rule(column: column.name, kind: kind, nullable: nullable)
        }
    }

    /// The problems of `table`'s values, as sentences: the first found in each column, at most
    /// `limit` in all. None for a table without rules.
    static func problems(_ db: Database, table: String, limit: Int = 5) throws -> [String] {
        let info = try Row.fetchAll(db, sql: "SELECT CAST(name AS TEXT) FROM pragma_table_info(?)", arguments: [table])
        let present = Set(info.compactMap { $0[0] as String? })
        let rules = rules(table, present: present)
        var problems: [String] = []
        if table == "schema_version" {
            let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM schema_version") ?? 0
            if rows != 1 { problems.append("schema_version holds \(rows) rows; the schema has exactly one") }
        }
        guard !rules.isEmpty else { return problems }
        // The row's identity for the detail: its rowid, or the key of a table without one.
        let withoutRowid = (try? Bool.fetchOne(db, sql: "SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?", arguments: [table])) ?? (table == "dataset_info")
        let identity = withoutRowid ? "key" : "rowid"
        let columns = rules.map(\.column.quotedDatabaseIdentifier).joined(separator: ", ")
        let statement = try db.makeStatement(sql: "SELECT \(identity), \(columns) FROM \(table.quotedDatabaseIdentifier) NOT INDEXED")
        let handle = statement.sqliteStatement
        let allowed = rules.map { rule -> [[UInt8]] in
            if case .member(let values) = rule.kind { return values.map { Array($0.utf8) } }
            return []
        }
        var faulted = [Bool](repeating: false, count: rules.count)
        var open = rules.count
        while open > 0, problems.count < limit, try db.nextRow(handle) {
            for (k, rule) in rules.enumerated() where !faulted[k] {
                let i = Int32(k + 1)
                guard let expected = problem(handle, i, rule, allowed: allowed[k]) else { continue }
                faulted[k] = true
                open -= 1
                problems.append("\(table).\(rule.column) holds \(StoredRow.describe(handle, i)) where the schema has \(expected) (\(table) \(identity) \(identityText(handle)))")
                if problems.count >= limit { break }
            }
        }
        return problems
    }

    /// The row's rowid or key (column 0) as the detail shows it.
    static func identityText(_ handle: OpaquePointer) -> String {
        switch sqlite3_column_type(handle, 0) {
        case SQLITE_INTEGER: return String(sqlite3_column_int64(handle, 0))
        case SQLITE_TEXT:
            let bytes = sqlite3_column_text(handle, 0)
            let count = Int(sqlite3_column_bytes(handle, 0))
            guard let bytes, StoredText.problem(bytes, count: count) == nil else { return StoredRow.describe(handle, 0) }
            return "'" + StoredRow.excerpt(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)) + "'"
        default: return StoredRow.describe(handle, 0)
        }
    }

    /// What column `i` should hold, when it holds something else; nil when its value is fine.
    @inline(__always)
    static func problem(_ handle: OpaquePointer, _ i: Int32, _ rule: Rule, allowed: [[UInt8]]) -> String? {
        let type = sqlite3_column_type(handle, i)
        if type == SQLITE_NULL { return rule.nullable ? nil : "a value (NOT NULL)" }
        switch rule.kind {
        case .integer:
            return type == SQLITE_INTEGER ? nil : "an integer"
        case .taxonID:
            guard type == SQLITE_INTEGER, TaxonomyLimits.taxonIDs.contains(sqlite3_column_int64(handle, i)) else { return "a taxon id (an integer from 1 to 2^53 - 1)" }
            return nil
        case .flag:
            guard type == SQLITE_INTEGER, (0...1).contains(sqlite3_column_int64(handle, i)) else { return "0 or 1" }
            return nil
        case .text, .member:
            guard type == SQLITE_TEXT else { return "text" }
            let bytes = sqlite3_column_text(handle, i)
            let count = Int(sqlite3_column_bytes(handle, i))
            if StoredText.problem(bytes, count: count) != nil { return "valid UTF-8 text without NUL" }
            guard case .member(let values) = rule.kind else { return nil }
            let text = UnsafeBufferPointer(start: bytes, count: count)
            if allowed.contains(where: { $0.elementsEqual(text) }) { return nil }
            return "one of " + values.map { "'\($0)'" }.joined(separator: ", ")
        }
    }
}
