import GRDB

/// The schema an imported database must have: the objects its kind's schema SQL creates (read back
/// from an in-memory database), so that no trigger, view, extra table or expression index of the
/// file's own choosing ever runs or is read, and no required table or column is missing.
///
/// For a taxonomy database that is the specification's schema v1 with or without each engine
/// extension (`SchemaExtensions`): an extension is present completely or not at all. Tables are
/// compared column by column (name, declared type, NOT NULL, primary key), then definition by
/// definition (`TableDefinition`: defaults, collations, CHECK constraints, references), indexes
/// and virtual tables by their SQL. A mismatch is `incompatibleSchema` with a detail naming the
/// object. Objects of earlier builds that the engine no longer reads
/// (`SchemaExtensions.retiredObjects`) are accepted when complete and unchanged, and never read.
/// Of SQLite's own tables only ANALYZE's statistics are accepted (`sqlite_stat1`, `sqlite_stat4`,
/// as SQLite makes them and of a size ANALYZE gives); an import replaces them with its own.
enum ImportSchema {
    struct Object: Sendable, Equatable {
        var type: String
        var name: String
        var sql: String?
    }

    struct Column: Sendable, Equatable {
        var name: String
        var type: String
        var notNull: Bool
        var primaryKey: Int
        var hidden: Int
    }

    /// The model: objects and, per ordinary table, its columns.
    struct Model: Sendable {
        var objects: [Object]
        var columns: [String: [Column]]
    }

    static let database: Model? = try? expected(Schema.sql())
    static let media: Model? = try? expected(MediaPackSchema.createSQL)

    static func expected(_ sql: String) throws -> Model {
        let queue = try DatabaseQueue()
        return try queue.write { db in
            try db.execute(sql: sql)
            let objects = try objects(db)
            var columns: [String: [Column]] = [:]
            for object in objects where object.type == "table" && !isVirtual(object) { columns[object.name] = try self.columns(db, object.name) }
            return Model(objects: objects, columns: columns)
        }
    }

    /// Every schema object, as text whatever the file stored (a hostile row may hold blobs).
    static func objects(_ db: Database) throws -> [Object] {
        try Row.fetchAll(db, sql: "SELECT CAST(type AS TEXT), CAST(name AS TEXT), CAST(sql AS TEXT) FROM main.sqlite_master").map { row in
            Object(type: row[0] ?? "", name: row[1] ?? "", sql: row[2])
        }
    }

    static func columns(_ db: Database, _ table: String) throws -> [Column] {
        try Row.fetchAll(db, sql: "SELECT CAST(name AS TEXT), CAST(type AS TEXT), \"notnull\", pk, hidden FROM pragma_table_xinfo(?)", arguments: [table]).map { row in
            Column(name: row[0] ?? "", type: (row[1] ?? "").uppercased(), notNull: row[2] == 1, primaryKey: row[3] ?? 0, hidden: row[4] ?? 0)
        }
    }

    static func isVirtual(_ object: Object) -> Bool { (object.sql ?? "").uppercased().hasPrefix("CREATE VIRTUAL TABLE") }

    /// SQL compared modulo whitespace runs.
    static func normalized(_ sql: String?) -> String? {
        sql.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
    }

    static func check(_ db: Database, kind: StolFormat.Kind) throws {
        guard let model = kind == .database ? database : media else { throw ReferenceError.importFailed("the engine cannot read its own schema") }
        let found = try objects(db)
        if let object = found.first(where: { $0.type == "trigger" || $0.type == "view" }) {
            throw ReferenceError.schemaMismatch("the database holds a \(object.type) (\(object.name)); the format has none")
        }
        // ANALYZE statistics are allowed (the build writes sqlite_stat1); an import recomputes them.
        try checkStatistics(db, found)
        let own = found.filter { !($0.type == "table" && statistics[$0.name] != nil) }
        // What earlier builds wrote and the engine no longer reads: accepted complete and unchanged.
        var retired: [String] = []
        if kind == .database {
            for object in own where model.objects.allSatisfy({ $0.name != object.name }) {
                guard let old = SchemaExtensions.retiredObjects.first(where: { $0.name == object.name }) else { continue }
                guard old.type == object.type, normalized(old.sql) == normalized(object.sql) else {
                    throw ReferenceError.schemaMismatch("\(object.type) \(object.name) differs from the one earlier builds wrote")
                }
                retired.append(object.name)
            }
            if !retired.isEmpty, let absent = SchemaExtensions.retiredObjects.first(where: { !retired.contains($0.name) }) {
                throw ReferenceError.schemaMismatch("the retired trigram index of earlier builds is incomplete: it has \(retired[0]) but not \(absent.name)")
            }
        }
        // Tables first, so that a missing or renamed column is named before the indexes on it.
        for object in own.sorted(by: { ($0.type == "table" ? 0 : 1) < ($1.type == "table" ? 0 : 1) }) where !retired.contains(object.name) {
            guard let expected = model.objects.first(where: { $0.name == object.name }), expected.type == object.type else {
                throw ReferenceError.schemaMismatch("unexpected \(object.type) \(object.name) (not in the schema)")
            }
            if object.type == "index" || isVirtual(expected) {
                if normalized(object.sql) != normalized(expected.sql) {
                    throw ReferenceError.schemaMismatch("\(object.type) \(object.name) differs from the schema")
                }
            } else if object.type == "table" {
                try checkColumns(db, table: object.name, expected: model.columns[object.name] ?? [])
                try checkDefinition(object, expected: expected)
            }
        }
        let present = Set(own.map(\.name))
        for object in model.objects where !present.contains(object.name) {
            guard kind == .database, let owner = SchemaExtensions.owner(of: object.name) else {
                throw ReferenceError.schemaMismatch("missing \(object.type) \(object.name)")
            }
            // An extension is all or nothing: absent, the import builds it.
            let siblings = SchemaExtensions.objects[owner] ?? []
            if let there = siblings.first(where: present.contains) {
                throw ReferenceError.schemaMismatch("extension \(owner.rawValue) is incomplete: it has \(there) but not \(object.name)")
            }
        }
    }

    /// `table`'s columns against the model's: the same names, declared types, NOT NULL and primary
    /// key, no generated column; an extension's column may be absent, a relaxed one nullable.
    static func checkColumns(_ db: Database, table: String, expected: [Column]) throws {
        let actual = try columns(db, table)
        if let generated = actual.first(where: { $0.hidden == 2 || $0.hidden == 3 }) {
            throw ReferenceError.schemaMismatch("table \(table) has a generated column (\(generated.name))")
        }
        for column in expected where !actual.contains(where: { $0.name == column.name }) {
            if SchemaExtensions.optionalColumns["\(table).\(column.name)"] != nil { continue }
            var detail = "table \(table) lacks column \(column.name)"
            if table == "traits" || table == "euler_tour" || table == "first_occurrence",
               actual.contains(where: { $0.name == "key" || $0.name == "idx" }) {
                detail += " (the layout of databases built by stol-engine before schema v1 followed the specification; rebuild it with `stol-engine build-db` and pack it again)"
            }
            throw ReferenceError.schemaMismatch(detail)
        }
        for column in actual {
            guard let model = expected.first(where: { $0.name == column.name }) else {
                throw ReferenceError.schemaMismatch("table \(table) has column \(column.name), which the schema does not have")
            }
            let relaxed = SchemaExtensions.nullableColumns.contains("\(table).\(column.name)")
            if column.type != model.type || column.primaryKey != model.primaryKey || (column.notNull != model.notNull && !(relaxed && column.notNull)) {
                throw ReferenceError.schemaMismatch(
                    "column \(table).\(column.name) is \(describe(column)); the schema has \(describe(model))\(relaxed ? " (or without NOT NULL)" : "")")
            }
        }
    }

    /// The statistics tables ANALYZE makes, as SQLite writes them.
    static let statistics: [String: String] = [
        "sqlite_stat1": "CREATE TABLE sqlite_stat1(tbl,idx,stat)",
        "sqlite_stat4": "CREATE TABLE sqlite_stat4(tbl,idx,neq,nlt,ndlt,sample)",
    ]

    /// Statistics tables as SQLite makes them, no larger than ANALYZE makes them (one `stat1` row
    /// per table and index, at most `SQLITE_STAT4_SAMPLES` (24) `stat4` samples per index, and
    /// some room); any other table of SQLite's (`sqlite_sequence`, `sqlite_stat_evil`) is refused
    /// like any unexpected table.
    static func checkStatistics(_ db: Database, _ objects: [Object]) throws {
        let indexes = objects.filter { $0.type == "index" }.count
        let tables = objects.filter { $0.type == "table" }.count
        for object in objects where object.type == "table" {
            guard let sql = statistics[object.name] else { continue }
            guard let expected = TableDefinition(sql), TableDefinition(object.sql ?? "") == expected else {
                throw ReferenceError.schemaMismatch("table \(object.name) is not the statistics table SQLite makes")
            }
            let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(object.name)") ?? 0
            let most = object.name == "sqlite_stat1" ? 2 * (tables + indexes) : 32 * (indexes + 1)
            if rows > most { throw ReferenceError.schemaMismatch("table \(object.name) holds \(rows) rows; ANALYZE makes at most \(most) for this schema") }
        }
    }

    /// `object`'s `CREATE TABLE` against the schema's, definition by definition, once the columns
    /// matched (`checkColumns`): the same defaults, collations, CHECK constraints and references.
    /// An extension's column may be absent; a relaxed column may add NOT NULL.
    static func checkDefinition(_ object: Object, expected: Object) throws {
        guard let actual = TableDefinition(object.sql ?? ""), var model = TableDefinition(expected.sql ?? "") else {
            throw ReferenceError.schemaMismatch("table \(object.name) is not defined by a CREATE TABLE statement")
        }
        // Absent optional columns (the columns matched already) leave the model too.
        model.parts.removeAll { part in
            guard let name = part.first, SchemaExtensions.optionalColumns["\(object.name).\(name)"] != nil else { return false }
            return actual.column(name) == nil
        }
        func shown(_ tokens: [String]) -> String {
            let text = tokens.joined(separator: " ")
            return text.count > 160 ? String(text.prefix(160)) + "…" : text
        }
        guard actual.head == model.head, actual.tail == model.tail, actual.parts.count == model.parts.count else {
            throw ReferenceError.schemaMismatch("table \(object.name) is defined differently from the schema")
        }
        for (part, modelPart) in zip(actual.parts, model.parts) where part != modelPart {
            let name = modelPart.first ?? ""
            // A widened CHECK set (`taxa.rank` with the ranks below species) accepts the
            // specification's narrower one: the model without the added values.
            var models = [modelPart]
            if let added = SchemaExtensions.widenedChecks["\(object.name).\(name)"] {
                models.append(Self.removing(added.map { "'\($0)'" }, fromListIn: modelPart))
            }
            if models.contains(part) { continue }
            // The relaxation (`taxa.rank` may be NULL) accepts the specification's NOT NULL.
            if SchemaExtensions.nullableColumns.contains("\(object.name).\(name)"), let at = part.firstIndex(of: "not"),
               at + 1 < part.count, part[at + 1] == "null", models.contains(Array(part[..<at] + part[(at + 2)...])) {
                continue
            }
            throw ReferenceError.schemaMismatch(
                "table \(object.name): `\(shown(part))` differs from the schema's `\(shown(modelPart))` (a default, collation, CHECK constraint or reference)")
        }
    }

    /// `tokens` without each of `values` and the comma before it (`, 'subspecies'` of an IN list).
    static func removing(_ values: [String], fromListIn tokens: [String]) -> [String] {
        var out: [String] = []
        for token in tokens {
            if values.contains(token), out.last == "," {
                out.removeLast()
                continue
            }
            out.append(token)
        }
        return out
    }

    static func describe(_ column: Column) -> String {
        ([column.type.isEmpty ? "untyped" : column.type] + (column.notNull ? ["NOT NULL"] : []) + (column.primaryKey > 0 ? ["PRIMARY KEY"] : []))
            .joined(separator: " ")
    }
}
