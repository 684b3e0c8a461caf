import GRDB
import GRDBSQLite
import STOLProtocol

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

    /// Tables whose values `TaxonomyTreeCheck` checks in its own pass over them (the Euler tour
    /// and first occurrences hold integers only), so that they are read once.
    static let checkedWithTheTree: Set<String> = ["euler_tour", "first_occurrence"]

    /// The rules of `table`'s columns that the schema has and the file holds (`present`); none
    /// for a table the schema does not model.
    static func rules(_ table: String, present: Set<String>) -> [Rule] {
        if checkedWithTheTree.contains(table) { return [] }
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
    /// `limit` in all, from a pass over the table of their own. None for a table without rules.
    static func problems(_ db: Database, table: String, limit: Int = 5) throws -> [String] {
        guard var pass = try Pass(db, table: table, limit: limit) else { return [] }
        try pass.scan(db)
        return pass.problems
    }

    /// The check of one table's values, fed row by row: by a pass of its own (`scan`), or by one
    /// that reads the table anyway (`IndexContentCheck`'s pass over a table with indexes, which
    /// selects `columns` too), so that a table is read once for both.
    struct Pass {
        let table: String
        let rules: [Rule]
        /// How the detail names a row: by `rowid`, or by `key` in a table without one.
        let identity: String
        let limit: Int
        // The rules as flat arrays, so that the loop over millions of rows copies nothing.
        private let kinds: [Code]
        private let nullable: [Bool]
        private let allowed: [[[UInt8]]]
        /// Rules not yet faulted: a column's first fault is its example, and it is not looked at again.
        private var checking: [Int]
        private(set) var problems: [String] = []
        /// Whether every row went through `check`.
        var complete = false

        /// Nil for a table without rules (and not `schema_version`, whose rows are counted here).
        init?(_ db: Database, table: String, limit: Int = 5) throws {
            let info = try Row.fetchAll(db, sql: "SELECT CAST(name AS TEXT) FROM pragma_table_info(?)", arguments: [table])
            let rules = StoredValueCheck.rules(table, present: Set(info.compactMap { $0[0] as String? }))
            guard !rules.isEmpty else { return nil }
            self.table = table
            self.rules = rules
            self.limit = limit
            let withoutRowid = (try? Bool.fetchOne(db, sql: "SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?", arguments: [table])) ?? (table == "dataset_info")
            // A table without a rowid (`dataset_info`, `descriptions`) names a row by its first key column.
            let firstKey = try String.fetchOne(db, sql: "SELECT CAST(name AS TEXT) FROM pragma_table_info(?) WHERE pk = 1", arguments: [table])
            identity = withoutRowid ? (firstKey ?? "key") : "rowid"
            kinds = rules.map { Code($0.kind) }
            nullable = rules.map(\.nullable)
            allowed = rules.map { rule -> [[UInt8]] in
                if case .member(let values) = rule.kind { return values.map { Array($0.utf8) } }
                return []
            }
            checking = Array(rules.indices)
            if table == "schema_version" {
                let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM schema_version") ?? 0
                if rows != 1 { problems.append("schema_version holds \(rows) rows; the schema has exactly one") }
            }
        }

        /// The columns the rows handed to `check` must hold, in order.
        var columns: [String] { rules.map(\.column) }

        /// Whether further rows can find nothing new.
        var isDone: Bool { checking.isEmpty || problems.count >= limit }

        /// Checks the row `handle` is on: rule k's column at `first + k`, the row's identity at `identityColumn`.
        mutating func check(_ handle: OpaquePointer, first: Int32, identityColumn: Int32) {
            var k = 0
            while k < checking.count {
                let column = checking[k]
                let i = first + Int32(column)
                let kind = kinds[column]
                if fine(handle, i, kind, nullable: nullable[column]),
                   kind != .member || StoredValueCheck.isMember(handle, i, of: allowed[column]) {
                    k += 1
                    continue
                }
                checking.remove(at: k)
                let rule = rules[column]
                problems.append("\(table).\(rule.column) holds \(StoredRow.describe(handle, i)) where the schema has \(expectation(rule)) (\(table) \(identity) \(identityText(handle, identityColumn)))")
                if problems.count >= limit { return }
            }
        }

        /// A pass of its own over the table, in rowid order.
        mutating func scan(_ db: Database) throws {
            let list = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            let statement = try db.makeStatement(sql: "SELECT \(identity == "rowid" ? identity : identity.quotedDatabaseIdentifier), \(list) FROM \(table.quotedDatabaseIdentifier) NOT INDEXED")
            let handle = statement.sqliteStatement
            while !isDone, try db.nextRow(handle) { check(handle, first: 1, identityColumn: 0) }
            complete = true
        }
    }

    /// `Kind` without its payload, for the loop over rows.
    enum Code {
        case integer, taxonID, flag, text, member

        init(_ kind: Kind) {
            switch kind {
            case .integer: self = .integer
            case .taxonID: self = .taxonID
            case .flag: self = .flag
            case .text: self = .text
            case .member: self = .member
            }
        }
    }

    /// Whether column `i` holds what `kind` allows; for a member column, text (its value is
    /// looked up by `isMember`).
    @inline(__always)
    static func fine(_ handle: OpaquePointer, _ i: Int32, _ kind: Code, nullable: Bool) -> Bool {
        let type = sqlite3_column_type(handle, i)
        if type == SQLITE_NULL { return nullable }
        switch kind {
        case .integer:
            return type == SQLITE_INTEGER
        case .taxonID:
            return type == SQLITE_INTEGER && TaxonomyLimits.taxonIDs.contains(sqlite3_column_int64(handle, i))
        case .flag:
            return type == SQLITE_INTEGER && (0...1).contains(sqlite3_column_int64(handle, i))
        case .text, .member:
            return type == SQLITE_TEXT && StoredText.problem(sqlite3_column_text(handle, i), count: Int(sqlite3_column_bytes(handle, i))) == nil
        }
    }

    /// Whether the text (or NULL) in column `i` is one of `allowed`.
    static func isMember(_ handle: OpaquePointer, _ i: Int32, of allowed: [[UInt8]]) -> Bool {
        guard sqlite3_column_type(handle, i) == SQLITE_TEXT else { return true }
        let text = UnsafeBufferPointer(start: sqlite3_column_text(handle, i), count: Int(sqlite3_column_bytes(handle, i)))
        return allowed.contains { $0.elementsEqual(text) }
    }

    /// What a column under `rule` holds, in words.
    static func expectation(_ rule: Rule) -> String {
        let value: String
        switch rule.kind {
        case .integer: value = "an integer"
        case .taxonID: value = "a taxon id (an integer from 1 to 2^53 - 1)"
        case .flag: value = "0 or 1"
        case .text: value = "valid UTF-8 text without NUL"
        case .member(let values): value = "one of " + values.map { "'\($0)'" }.joined(separator: ", ")
        }
        return rule.nullable ? value + " or NULL" : value
    }

    /// The row's rowid or key (column `i`) as the detail shows it.
    static func identityText(_ handle: OpaquePointer, _ i: Int32) -> String {
        switch sqlite3_column_type(handle, i) {
        case SQLITE_INTEGER: return String(sqlite3_column_int64(handle, i))
        case SQLITE_TEXT:
            let bytes = sqlite3_column_text(handle, i)
            let count = Int(sqlite3_column_bytes(handle, i))
            guard let bytes, StoredText.problem(bytes, count: count) == nil else { return StoredRow.describe(handle, i) }
            return "'" + StoredRow.excerpt(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)) + "'"
        default: return StoredRow.describe(handle, i)
        }
    }
}
