import STOLRPC

/// The `favorites/*` methods. Every method that changes state is ordered, and every change that
/// changed something is followed by `favorites/didChange {count}`.
enum FavoritesMethods {
    struct IDParams: Decodable, Sendable {
        var taxonId: Int64
    }

    /// `taxonId` or `taxonIds`, exactly one of them.
    struct IDsParams: Decodable, Sendable {
        var taxonId: Int64?
        var taxonIds: [Int64]?

        /// One id (`single` true) or a list.
        func validated() throws -> (ids: [Int64], single: Bool) {
            switch (taxonId, taxonIds) {
            case (let id?, nil):
                return ([try Params.taxonID(id, field: "taxonId")], true)
            case (nil, let ids?):
                return (try ids.enumerated().map { try Params.taxonID($1, field: "taxonIds.\($0)") }, false)
            case (nil, nil):
                throw RPCError.invalidParams(field: "taxonId", "is required (or taxonIds)")
            case (_?, _?):
                throw RPCError.invalidParams(field: "taxonIds", "give taxonId or taxonIds, not both")
            }
        }
    }

    struct ListParams: Decodable, Sendable {
        var sort: String?
        var lang: String?

        func validated() throws -> (sort: FavoritesSort, lang: String) {
            var order = FavoritesSort.recent
            if let sort {
                guard let parsed = FavoritesSort(rawValue: sort) else {
                    throw RPCError.invalidParams(field: "sort", "must be one of \(FavoritesSort.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                order = parsed
            }
            return (order, try Params.language(lang))
        }
    }

    struct AddResult: Encodable, Sendable {
        var added: Bool
        var available: Bool
    }

    struct ToggleResult: Encodable, Sendable {
        var isFavorite: Bool
        var available: Bool
    }

    struct Status: Encodable, Sendable {
        var count: Int
        var bytes: Int64
        var recovery: FavoritesRecovery?
        var movedAside: [String]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(count, forKey: .count)
            try container.encode(bytes, forKey: .bytes)
            try container.encode(recovery, forKey: .recovery)  // null when nothing was recovered
            try container.encode(movedAside, forKey: .movedAside)
        }

        enum CodingKeys: String, CodingKey { case count, bytes, recovery, movedAside }
    }

    /// Tells every open view to refresh, when something changed (here, or in another engine on
    /// the same data directory since this engine last looked).
    static func announce(_ change: FavoritesService.Change, _ ctx: RequestContext, _ favorites: FavoritesService) async {
        let outside = await favorites.takeOutsideChange()
        if change.changed || outside != nil { ctx.notify("favorites/didChange", .object(["count": .integer(change.count)])) }
    }

    /// Announces a change another engine made, found by a read.
    static func announceOutside(_ ctx: RequestContext, _ favorites: FavoritesService) async {
        if let count = await favorites.takeOutsideChange() { ctx.notify("favorites/didChange", .object(["count": .integer(count)])) }
    }

    static func register(in table: inout MethodTable, engine: Engine) {
        let favorites = engine.favorites

        table.on("favorites/add", ordered: true) { (p: IDParams, ctx) in
            let id = try Params.taxonID(p.taxonId, field: "taxonId")
            let available = try await FavoritesListing.isAvailable(id, in: await engine.databases.current())
            let change = try await favorites.add(id)
            await announce(change, ctx, favorites)
            return AddResult(added: change.changed, available: available)
        }
        table.on("favorites/remove", ordered: true) { (p: IDsParams, ctx) in
            let (ids, _) = try p.validated()
            let (removed, change) = try await favorites.remove(ids)
            await announce(change, ctx, favorites)
            return ["removed": removed]
        }
        table.on("favorites/toggle", ordered: true) { (p: IDParams, ctx) in
            let id = try Params.taxonID(p.taxonId, field: "taxonId")
            let available = try await FavoritesListing.isAvailable(id, in: await engine.databases.current())
            let (isFavorite, change) = try await favorites.toggle(id)
            await announce(change, ctx, favorites)
            return ToggleResult(isFavorite: isFavorite, available: available)
        }
        table.on("favorites/clear", ordered: true) { (_: NoParams, ctx) in
            let (removed, change) = try await favorites.clear()
            await announce(change, ctx, favorites)
            return ["removed": removed]
        }
        table.on("favorites/contains") { (p: IDsParams, ctx) -> JSONValue in
            let (ids, single) = try p.validated()
            if single {
                let isFavorite = try await favorites.contains(ids[0])
                await announceOutside(ctx, favorites)
                return .object(["isFavorite": .bool(isFavorite)])
            }
            let found = try await favorites.contains(ids)
            await announceOutside(ctx, favorites)
            return .object(["favorites": .object(found.sorted { $0.key < $1.key }.map { (key: String($0.key), value: .bool($0.value)) })])
        }
        table.on("favorites/count") { (_: NoParams, ctx) in
            let count = try await favorites.count()
            await announceOutside(ctx, favorites)
            return ["count": count]
        }
        table.on("favorites/storageBytes") { (_: NoParams, _) in
            ["bytes": try await favorites.storageBytes()]
        }
        table.on("favorites/status") { (_: NoParams, ctx) in
            let status = try await favorites.status()
            await announceOutside(ctx, favorites)
            return Status(count: status.count, bytes: status.bytes, recovery: status.recovery, movedAside: status.movedAside)
        }
        table.on("favorites/list") { (p: ListParams, ctx) in
            let (sort, lang) = try p.validated()
            let rows = try await favorites.rows()
            await announceOutside(ctx, favorites)
            return ["favorites": try await FavoritesListing.entries(rows, in: await engine.databases.current(), lang: lang, sort: sort)]
        }
        table.on("favorites/export") { (p: ListParams, _) in
            let (sort, lang) = try p.validated()
            let rows = try await favorites.rows()
            let entries = try await FavoritesListing.entries(rows, in: await engine.databases.current(), lang: lang, sort: sort)
            return ["text": FavoritesExport.text(entries)]
        }
    }
}
