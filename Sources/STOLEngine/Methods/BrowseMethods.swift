import STOLRPC
import STOLJSON

/// `database/info` and the `taxon/*` browse methods.
enum BrowseMethods {
    struct IDParams: Codable, Sendable, QuickDecodable {
        var id: Int64
        var lang: String?

        init(id: Int64, lang: String? = nil) {
            self.id = id
            self.lang = lang
        }

        /// `{"id": <integer>}` with an optional string `lang`; nil for any other shape.
        init?(quick params: JSONValue?) {
            guard case .number(let text)? = params?["id"], let id = Int64(text) else { return nil }
            switch params?["lang"] {
            case nil, .null?: self.init(id: id)
            case .string(let lang)?: self.init(id: id, lang: lang)
            default: return nil
            }
        }
    }

    /// For methods whose answer has no names in it, so no language.
    struct TaxonIDParams: Codable, Sendable {
        var id: Int64
    }

    struct RootsParams: Codable, Sendable {
        var lang: String?
    }

    struct ChildrenParams: Codable, Sendable {
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
            favoritesRecovery: await engine.favorites.startUpRecovery(),
            settingsRecovery: engine.settingsRecovery,
            damage: db.damage.map { .init(detail: $0.detail, fallback: $0.source == .reference ? "database/deactivateReference" : nil) })
    }

    /// `{"languages": [...]}`.
    struct Languages: Encodable, Sendable {
        var languages: [DatabaseLanguage]
    }

    /// `{"roots": [...]}`.
    struct Roots: JSONWritable, Sendable {
        var roots: [Taxon]
        func writeJSON(into out: inout [UInt8]) { JSONObject.write(into: &out) { $0.member("roots", roots) } }
    }

    /// `{"ancestors": [...]}`, root first.
    struct Ancestors: JSONWritable, Sendable {
        var ancestors: [Taxon]
        func writeJSON(into out: inout [UInt8]) { JSONObject.write(into: &out) { $0.member("ancestors", ancestors) } }
    }

    /// `{"names": [...]}`.
    struct Names: JSONWritable, Sendable {
        var names: [TaxonName]
        func writeJSON(into out: inout [UInt8]) { JSONObject.write(into: &out) { $0.member("names", names) } }
    }

    /// `{"traits": [...]}`.
    struct Traits: JSONWritable, Sendable {
        var traits: [Trait]
        func writeJSON(into out: inout [UInt8]) { JSONObject.write(into: &out) { $0.member("traits", traits) } }
    }

    /// `{"references": [...]}`.
    struct References: JSONWritable, Sendable {
        var references: [Reference]
        func writeJSON(into out: inout [UInt8]) { JSONObject.write(into: &out) { $0.member("references", references) } }
    }

    /// `database/info`: the active database, its dataset, and recoveries found at start-up.
    enum Info: RPCMethod {
        typealias Result = DatabaseInfo
        static let name = "database/info"
    }

    /// `database/languages`: the languages of the active database's common names, with counts.
    enum ListLanguages: RPCMethod {
        typealias Result = Languages
        static let name = "database/languages"
    }

    /// `taxon/get`: one taxon, its preferred common name in `lang`.
    enum Get: RPCMethod {
        typealias Params = IDParams
        typealias Result = Taxon
        static let name = "taxon/get"
    }

    /// `taxon/roots`: the taxa without a parent.
    enum ListRoots: RPCMethod {
        typealias Params = RootsParams
        typealias Result = Roots
        static let name = "taxon/roots"
    }

    /// `taxon/children`: one page of a taxon's children, sorted by scientific name.
    enum Children: RPCMethod {
        typealias Params = ChildrenParams
        typealias Result = TaxaPage
        static let name = "taxon/children"
    }

    /// `taxon/ancestors`: a taxon's lineage, root first.
    enum ListAncestors: RPCMethod {
        typealias Params = IDParams
        typealias Result = Ancestors
        static let name = "taxon/ancestors"
    }

    /// `taxon/names`: a taxon's names, every language unless `lang` is given.
    enum ListNames: RPCMethod {
        typealias Params = IDParams
        typealias Result = Names
        static let name = "taxon/names"
    }

    /// `taxon/traits`: a taxon's traits, keys and values in `lang` where the engine can translate them.
    enum ListTraits: RPCMethod {
        typealias Params = IDParams
        typealias Result = Traits
        static let name = "taxon/traits"
    }

    /// `taxon/references`: a taxon's references.
    enum ListReferences: RPCMethod {
        typealias Params = TaxonIDParams
        typealias Result = References
        static let name = "taxon/references"
    }

    /// `{"ids": [...]}`: up to `CompareService.maxLineageIDs` taxon ids.
    struct LineagesParams: Codable, Sendable {
        var ids: [Int64]
    }

    /// `taxon/lineages`: the lineages of many taxa, ids only, root first, from the in-memory tree.
    enum Lineages: RPCMethod {
        typealias Params = LineagesParams
        typealias Result = LineageBatch
        static let name = "taxon/lineages"
    }

    /// `taxon/detail`: a taxon with its lineage, names, traits and references in one answer;
    /// with `include`, its image, favourite state and closest relatives too (`DetailPage`).
    enum Detail: RPCMethod {
        typealias Params = DetailPage.Request
        typealias Result = DetailPage.Answer
        static let name = "taxon/detail"
        static func ordering(for params: JSONValue?) -> MethodOrdering { DetailPage.ordering(for: params) }
    }

    static func register(in table: inout MethodTable, engine: Engine) {
        table.on(Info.self) { _, _ in
            await databaseInfo(await engine.databases.current(), engine: engine)
        }
        table.on(ListLanguages.self) { _, _ in
            Languages(languages: try await engine.databases.current().languages())
        }
        table.on(Get.self, immediately: { p, context in
            // On the intake thread, while nothing on disk asks for a catch-up first.
            guard let database = engine.databases.currentIfInStep(checkedAfter: context.inputRead) else { return nil }
            return try TaxonomyStore(database: database).taxonNow(try Params.taxonID(p.id), lang: try Params.language(p.lang))
        }) { p, _ in
            try await engine.store().taxon(try Params.taxonID(p.id), lang: try Params.language(p.lang))
        }
        table.on(ListRoots.self) { p, _ in
            Roots(roots: try await engine.store().roots(lang: try Params.language(p.lang)))
        }
        table.on(Children.self) { p, _ in
            let parent = try Params.taxonID(p.id)
            let cursor = try PageCursor.decode(p.cursor, parent: parent)
            let query = TaxonomyStore.ChildQuery(
                parentID: parent, limit: try Params.limit(p.limit, default: 100, max: 1000),
                after: cursor.map { ($0.name, $0.id) }, rank: try Params.rank(p.rank),
                conservation: try Params.conservation(p.conservation), lang: try Params.language(p.lang))
            let page = try await engine.store().children(query)
            let next = page.hasMore ? page.children.last.map { PageCursor(parent: parent, name: $0.scientificName, id: $0.id).encoded } : nil
            return TaxaPage(children: page.children, nextCursor: next)
        }
        table.on(ListAncestors.self) { p, _ in
            let id = try Params.taxonID(p.id), lang = try Params.language(p.lang)
            let store = await engine.store()
            // From the in-memory tree once it is built; from SQL before, or above `lcaMaxNodes`.
            return Ancestors(ancestors: try await store.ancestors(id, lang: lang, tree: await engine.lca.snapshot(for: store.database)))
        }
        table.on(ListNames.self) { p, _ in
            Names(names: try await engine.store().names(try Params.taxonID(p.id), lang: try p.lang.map { try Params.language($0) }))
        }
        table.on(ListTraits.self) { p, _ in
            Traits(traits: try await engine.store().traits(try Params.taxonID(p.id), lang: try Params.language(p.lang)))
        }
        table.on(ListReferences.self) { p, _ in
            References(references: try await engine.store().references(try Params.taxonID(p.id)))
        }
        table.on(Lineages.self) { p, _ in
            guard p.ids.count <= CompareService.maxLineageIDs else {
                throw RPCError.invalidParams(field: "ids", "must hold at most \(CompareService.maxLineageIDs) ids; split the batch")
            }
            let ids = try p.ids.enumerated().map { try Params.taxonID($1, field: "ids.\($0)") }
            return try await engine.compare.lineages(ids)
        }
        table.on(Detail.self) { p, _ in
            try await DetailPage.answer(p, engine: engine)
        }
    }
}
