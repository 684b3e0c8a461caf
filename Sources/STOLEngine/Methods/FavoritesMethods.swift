import STOLProtocol
import STOLRPC

/// The `favorites/*` methods. Every method that changes state is ordered, and every change that
/// changed something is followed by `favorites/didChange {count}`.
enum FavoritesMethods {
    /// Tells every open view to refresh, when something changed (here, or in another engine on
    /// the same data directory since this engine last looked).
    static func announce(_ change: FavoritesService.Change, _ ctx: RequestContext, _ favorites: FavoritesService) async {
        let outside = await favorites.takeOutsideChange()
        if change.changed || outside != nil { ctx.notify(FavoritesDidChangeNotification(count: change.count)) }
    }

    /// Announces a change another engine made, found by a read.
    static func announceOutside(_ ctx: RequestContext, _ favorites: FavoritesService) async {
        if let count = await favorites.takeOutsideChange() { ctx.notify(FavoritesDidChangeNotification(count: count)) }
    }

    static func register(in table: inout MethodTable, engine: Engine) {
        let favorites = engine.favorites

        table.on(FavoritesAddRequest.self) { p, ctx in
            let id = try Params.taxonID(p.taxonId, field: "taxonId")
            let available = try await FavoritesListing.isAvailable(id, in: await engine.databases.current())
            let change = try await favorites.add(id)
            await announce(change, ctx, favorites)
            return FavoriteAdded(added: change.changed, available: available)
        }
        table.on(FavoritesRemoveRequest.self) { p, ctx in
            let (ids, _) = try Params.taxonIDs(p)
            let (removed, change) = try await favorites.remove(ids)
            await announce(change, ctx, favorites)
            return FavoritesRemoved(removed: removed)
        }
        table.on(FavoritesToggleRequest.self) { p, ctx in
            let id = try Params.taxonID(p.taxonId, field: "taxonId")
            let available = try await FavoritesListing.isAvailable(id, in: await engine.databases.current())
            let (isFavorite, change) = try await favorites.toggle(id)
            await announce(change, ctx, favorites)
            return FavoriteToggled(isFavorite: isFavorite, available: available)
        }
        table.on(FavoritesClearRequest.self) { _, ctx in
            let (removed, change) = try await favorites.clear()
            await announce(change, ctx, favorites)
            return FavoritesRemoved(removed: removed)
        }
        table.on(FavoritesContainsRequest.self) { p, ctx in
            let (ids, single) = try Params.taxonIDs(p)
            let result: FavoritesContainment = single ? .one(try await favorites.contains(ids[0])) : .list(try await favorites.contains(ids))
            await announceOutside(ctx, favorites)
            return result
        }
        table.on(FavoritesCountRequest.self) { _, ctx in
            let count = try await favorites.count()
            await announceOutside(ctx, favorites)
            return FavoritesCount(count: count)
        }
        table.on(FavoritesStorageBytesRequest.self) { _, _ in
            FavoritesStorage(bytes: try await favorites.storageBytes())
        }
        table.on(FavoritesStatusRequest.self) { _, ctx in
            let status = try await favorites.status()
            await announceOutside(ctx, favorites)
            return FavoritesStatus(count: status.count, bytes: status.bytes, recovery: status.recovery, movedAside: status.movedAside)
        }
        table.on(FavoritesListRequest.self) { p, ctx in
            let (sort, lang) = (p.sort ?? .recent, try Params.language(p.lang))
            let rows = try await favorites.rows()
            await announceOutside(ctx, favorites)
            return FavoritesList(favorites: try await FavoritesListing.entries(rows, in: await engine.databases.current(), lang: lang, sort: sort))
        }
        table.on(FavoritesExportRequest.self) { p, _ in
            let (sort, lang) = (p.sort ?? .recent, try Params.language(p.lang))
            let rows = try await favorites.rows()
            let entries = try await FavoritesListing.entries(rows, in: await engine.databases.current(), lang: lang, sort: sort)
            return ExportedText(text: FavoritesExport.text(entries, lang: lang), lang: FavoritesExport.titleLanguage(for: lang))
        }
    }
}
