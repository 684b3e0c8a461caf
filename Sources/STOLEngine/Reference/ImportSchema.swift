import GRDB

/// The schema an imported database must have: the objects its kind's schema SQL creates (read back
/// from an in-memory database), so that no trigger, view, extra table or expression index of the
/// file's own choosing ever runs or is read, and no required table or column is missing.
///
/// For a taxonomy database that is the specification's schema v1 with or without each engine
/// extension (`SchemaExtensions`): an extension is present completely or not at all. Tables are
/// compared column by column (name, declared type, NOT NULL, primary key), indexes and virtual
/// tables by their SQL. A mismatch is `incompatibleSchema` with a detail naming the object. Objects
/// of earlier builds that the engine no longer reads (`SchemaExtensions.retiredObjects`) are
/// accepted when complete and unchanged, and never read.
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
        // ANALYZE statistics are allowed: the build writes sqlite_stat1.
        let own = found.filter { !($0.type == "table" && ($0.name.hasPrefix("sqlite_stat") || $0.name == "sqlite_sequence")) }
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

    static func describe(_ column: Column) -> String {
        ([column.type.isEmpty ? "untyped" : column.type] + (column.notNull ? ["NOT NULL"] : []) + (column.primaryKey > 0 ? ["PRIMARY KEY"] : []))
            .joined(separator: " ")
    }
}
