import STOLProtocol
import STOLRPC

/// `database/info`, `database/languages` and the `taxon/*` browse methods.
enum BrowseMethods {
    /// `database/info`'s answer for `db` (also what `database/import` answers).
    static func databaseInfo(_ db: TaxonomyDatabase, engine: Engine) async -> DatabaseInfo {
        let info = db.datasetInfo
        return DatabaseInfo(
            source: db.source, schemaVersion: db.schemaVersion, taxaCount: db.taxaCount, sizeBytes: db.sizeBytes,
            dataset: .init(name: info["name"], version: info["version"], license: info["license"], attribution: info["attribution"], buildDate: info["build_date"]),
            favoritesRecovery: await engine.favorites.startUpRecovery(),
            settingsRecovery: engine.settingsRecovery,
            damage: db.damage.map { .init(detail: $0.detail, fallback: $0.source == .reference ? DeactivateReferenceRequest.method : nil) },
            referenceFallback: db.source == .bundled ? await engine.reference.fallback : nil)
    }

    static func register(in table: inout MethodTable, engine: Engine) {
        table.on(DatabaseInfoRequest.self) { _, _ in
            await databaseInfo(await engine.databases.current(), engine: engine)
        }
        table.on(DatabaseLanguagesRequest.self) { _, _ in
            DatabaseLanguages(languages: try await engine.databases.current().languages())
        }
        table.on(TaxonGetRequest.self, inline: { p, context in
            // On the intake thread, while nothing on disk asks for a catch-up first.
            guard let database = engine.databases.currentForInlineRead(checkedAfter: context.inputRead) else { return nil }
            return try TaxonomyStore(database: database).taxonInline(try Params.taxonID(p.id), lang: try Params.language(p.lang))
        }) { p, _ in
            try await engine.store().taxon(try Params.taxonID(p.id), lang: try Params.language(p.lang))
        }
        table.on(TaxonRootsRequest.self) { p, _ in
            TaxonRoots(roots: try await engine.store().roots(lang: try Params.language(p.lang)))
        }
        table.on(TaxonChildrenRequest.self) { p, _ in
            let parent = try Params.taxonID(p.id), lang = try Params.language(p.lang), order = p.sort ?? .scientific
            let cursor = try PageCursor.decode(p.cursor, parent: parent, order: order, lang: lang)
            let query = TaxonomyStore.ChildQuery(
                parentID: parent, limit: try Params.limit(p.limit, default: 100, max: 1000),
                after: cursor?.position, rank: p.rank, conservation: p.conservation, lang: lang, order: order)
            let page = try await engine.store().children(query)
            return TaxonChildren(children: page.children, nextCursor: page.next.map { PageCursor(parent: parent, order: order, lang: lang, position: $0).encoded })
        }
        table.on(TaxonAncestorsRequest.self) { p, _ in
            let id = try Params.taxonID(p.id), lang = try Params.language(p.lang)
            let store = await engine.store()
            // From the in-memory tree once it is built; from SQL before, or above `lcaMaxNodes`.
            return TaxonAncestors(ancestors: try await store.ancestors(id, lang: lang, tree: await engine.lca.snapshot(for: store.database)))
        }
        table.on(TaxonNamesRequest.self) { p, _ in
            TaxonNames(names: try await engine.store().names(try Params.taxonID(p.id), lang: try p.lang.map { try Params.language($0) }))
        }
        table.on(TaxonTraitsRequest.self) { p, _ in
            TaxonTraits(traits: try await engine.store().traits(try Params.taxonID(p.id), lang: try Params.language(p.lang)))
        }
        table.on(TaxonReferencesRequest.self) { p, _ in
            TaxonReferences(references: try await engine.store().references(try Params.taxonID(p.id)))
        }
        table.on(TaxonLineagesRequest.self) { p, _ in
            guard p.ids.count <= CompareService.maxLineageIDs else {
                throw RPCError.invalidParams(field: "ids", "must hold at most \(CompareService.maxLineageIDs) ids; split the batch")
            }
            let ids = try p.ids.enumerated().map { try Params.taxonID($1, field: "ids.\($0)") }
            return try await engine.compare.lineages(ids)
        }
        table.on(TaxonDetailRequest.self) { p, _ in
            try await DetailPage.answer(p, engine: engine)
        }
    }
}
