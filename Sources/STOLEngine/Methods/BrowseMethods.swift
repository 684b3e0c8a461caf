import STOLRPC

/// `database/info` and the `taxon/*` browse methods.
enum BrowseMethods {
    struct IDParams: Decodable, Sendable {
        var id: Int64
        var lang: String?
    }

    struct RootsParams: Decodable, Sendable {
        var lang: String?
    }

    struct ChildrenParams: Decodable, Sendable {
        var id: Int64
        var limit: Int?
        var cursor: String?
        var rank: String?
        var conservation: String?
        var lang: String?
    }

    struct DatabaseInfo: Encodable, Sendable {
        struct Dataset: Encodable, Sendable {
            var name: String?
            var version: String?
            var license: String?
            var attribution: String?
            var buildDate: String?
        }
        var source: TaxonomyDatabase.Source
        var schemaVersion: Int
        var taxaCount: Int
        var sizeBytes: Int64
        var dataset: Dataset
        /// Set when this run found the favourites file damaged and moved it aside.
        var favoritesRecovery: FavoritesRecovery?
        /// Set when this run found `settings.json` damaged and moved it aside.
        var settingsRecovery: SettingsRecovery?
        /// Set when a read found this database damaged; `database/deactivateReference` falls back.
        var damage: Damage?

        struct Damage: Encodable, Sendable {
            var detail: String
            var fallback: String?
        }
    }

    struct TaxaPage: JSONWritable, Sendable {
        var children: [Taxon]
        var nextCursor: String?

        func writeJSON(into out: inout [UInt8]) {
            JSONObject.write(into: &out) { o in
                o.member("children", children)
                o.member("nextCursor", ifPresent: nextCursor)
            }
        }
    }

    /// `database/info`'s result for `db` (also what `database/import` answers).
    static func databaseInfo(_ db: TaxonomyDatabase, engine: Engine) async -> DatabaseInfo {
        let info = db.datasetInfo
        return DatabaseInfo(
            source: db.source, schemaVersion: db.schemaVersion, taxaCount: db.taxaCount, sizeBytes: db.sizeBytes,
            dataset: .init(name: info["name"], version: info["version"], license: info["license"], attribution: info["attribution"], buildDate: info["build_date"]),
            favoritesRecovery: await engine.favorites.recordedRecovery(),
            settingsRecovery: engine.settingsRecovery,
            damage: db.damage.map { .init(detail: $0.detail, fallback: $0.source == .reference ? "database/deactivateReference" : nil) })
    }

    static func register(in table: inout MethodTable, engine: Engine) {
        table.on("database/info") { (_: NoParams, _) in
            await databaseInfo(await engine.databases.current(), engine: engine)
        }
        table.on("database/languages") { (_: NoParams, _) in
            ["languages": try await engine.databases.current().languages()]
        }
        table.on("taxon/get") { (p: IDParams, _) in
            try await engine.store().taxon(try Params.taxonID(p.id), lang: try Params.language(p.lang))
        }
        table.on("taxon/roots") { (p: RootsParams, _) in
            ["roots": try await engine.store().roots(lang: try Params.language(p.lang))]
        }
        table.on("taxon/children") { (p: ChildrenParams, _) in
            let cursor = try PageCursor.decode(p.cursor)
            let query = TaxonomyStore.ChildQuery(
                parentID: try Params.taxonID(p.id), limit: try Params.limit(p.limit, default: 100, max: 1000),
                after: cursor.map { ($0.name, $0.id) }, rank: try Params.rank(p.rank),
                conservation: try Params.conservation(p.conservation), lang: try Params.language(p.lang))
            let page = try await engine.store().children(query)
            let next = page.hasMore ? page.children.last.map { PageCursor(name: $0.scientificName, id: $0.id).encoded } : nil
            return TaxaPage(children: page.children, nextCursor: next)
        }
        table.on("taxon/ancestors") { (p: IDParams, _) in
            ["ancestors": try await engine.store().ancestors(try Params.taxonID(p.id), lang: try Params.language(p.lang))]
        }
        table.on("taxon/names") { (p: IDParams, _) in
            ["names": try await engine.store().names(try Params.taxonID(p.id), lang: try p.lang.map { try Params.language($0) })]
        }
        table.on("taxon/traits") { (p: IDParams, _) in
            ["traits": try await engine.store().traits(try Params.taxonID(p.id))]
        }
        table.on("taxon/references") { (p: IDParams, _) in
            ["references": try await engine.store().references(try Params.taxonID(p.id))]
        }
        table.on("taxon/detail") { (p: IDParams, _) in
            try await engine.store().detail(try Params.taxonID(p.id), lang: try Params.language(p.lang))
        }
    }
}
