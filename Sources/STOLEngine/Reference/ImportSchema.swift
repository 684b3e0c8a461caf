import GRDB

/// The schema an imported database must have: exactly the objects its kind's schema SQL creates
/// (read back from an in-memory database), so no trigger, view, extra table or expression index
/// of the file's own choosing ever runs or is read, and no required table is missing.
enum ImportSchema {
    struct Object: Sendable, Equatable {
        var type: String
        var name: String
        var sql: String?
    }

    static let database: [Object]? = try? expected(Schema.sql())
    static let media: [Object]? = try? expected(MediaPackSchema.createSQL)

    static func expected(_ sql: String) throws -> [Object] {
        let queue = try DatabaseQueue()
        return try queue.write { db in
            try db.execute(sql: sql)
            return try objects(db)
        }
    }

    /// Every schema object, as text whatever the file stored (a hostile row may hold blobs).
    static func objects(_ db: Database) throws -> [Object] {
        try Row.fetchAll(db, sql: "SELECT CAST(type AS TEXT), CAST(name AS TEXT), CAST(sql AS TEXT) FROM sqlite_master").map { row in
            Object(type: row[0] ?? "", name: row[1] ?? "", sql: row[2])
        }
    }

    /// SQL compared modulo whitespace runs.
    static func normalized(_ sql: String?) -> String? {
        sql.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
    }

    static func check(_ db: Database, kind: StolFormat.Kind) throws {
        guard let expected = kind == .database ? database : media else { throw ReferenceError.importFailed("the engine cannot read its own schema") }
        let found = try objects(db)
        if let object = found.first(where: { $0.type == "trigger" || $0.type == "view" }) {
            throw ReferenceError.databaseCorrupt("the database holds a \(object.type) (\(object.name)); the format has none")
        }
        // ANALYZE statistics are allowed: the build writes sqlite_stat1.
        let own = found.filter { !($0.type == "table" && ($0.name.hasPrefix("sqlite_stat") || $0.name == "sqlite_sequence")) }
        for object in own {
            guard let model = expected.first(where: { $0.name == object.name }), model.type == object.type else {
                throw ReferenceError.databaseCorrupt("unexpected \(object.type) \(object.name) (not in the schema)")
            }
            let compared = object.type == "index" || (model.sql ?? "").hasPrefix("CREATE VIRTUAL TABLE")
            if compared, normalized(object.sql) != normalized(model.sql) {
                throw ReferenceError.databaseCorrupt("\(object.type) \(object.name) differs from the schema")
            }
            if object.type == "table", !(model.sql ?? "").hasPrefix("CREATE VIRTUAL TABLE"),
               try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM pragma_table_xinfo(?) WHERE hidden IN (2, 3))", arguments: [object.name]) == true {
                throw ReferenceError.databaseCorrupt("table \(object.name) has a generated column")
            }
        }
        if let missing = expected.first(where: { model in !own.contains { $0.name == model.name } }) {
            throw ReferenceError.databaseCorrupt("missing \(missing.type) \(missing.name)")
        }
    }
}
