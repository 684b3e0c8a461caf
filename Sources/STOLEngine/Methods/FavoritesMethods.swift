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

    /// Tells every open view to refresh, when something changed.
    static func announce(_ change: FavoritesService.Change, _ ctx: RequestContext) {
        if change.changed { ctx.notify("favorites/didChange", .object(["count": .integer(change.count)])) }
    }

    static func register(in table: inout MethodTable, engine: Engine) {
        let favorites = engine.favorites

        table.on("favorites/add", ordered: true) { (p: IDParams, ctx) in
            let id = try Params.taxonID(p.taxonId, field: "taxonId")
            let available = try await FavoritesListing.isAvailable(id, in: await engine.databases.current())
            let change = try await favorites.add(id)
            announce(change, ctx)
            return AddResult(added: change.changed, available: available)
        }
        table.on("favorites/remove", ordered: true) { (p: IDsParams, ctx) in
            let (ids, _) = try p.validated()
            let (removed, change) = try await favorites.remove(ids)
            announce(change, ctx)
            return ["removed": removed]
        }
        table.on("favorites/toggle", ordered: true) { (p: IDParams, ctx) in
            let id = try Params.taxonID(p.taxonId, field: "taxonId")
            let available = try await FavoritesListing.isAvailable(id, in: await engine.databases.current())
            let (isFavorite, change) = try await favorites.toggle(id)
            announce(change, ctx)
            return ToggleResult(isFavorite: isFavorite, available: available)
        }
        table.on("favorites/clear", ordered: true) { (_: NoParams, ctx) in
            let (removed, change) = try await favorites.clear()
            announce(change, ctx)
            return ["removed": removed]
        }
        table.on("favorites/contains") { (p: IDsParams, _) -> JSONValue in
            let (ids, single) = try p.validated()
            if single { return .object(["isFavorite": .bool(try await favorites.contains(ids[0]))]) }
            let found = try await favorites.contains(ids)
            return .object(["favorites": .object(found.sorted { $0.key < $1.key }.map { (key: String($0.key), value: .bool($0.value)) })])
        }
        table.on("favorites/count") { (_: NoParams, _) in
            ["count": try await favorites.count()]
        }
        table.on("favorites/storageBytes") { (_: NoParams, _) in
            ["bytes": try await favorites.storageBytes()]
        }
        table.on("favorites/status") { (_: NoParams, _) in
            let status = try await favorites.status()
            return Status(count: status.count, bytes: status.bytes, recovery: status.recovery, movedAside: status.movedAside)
        }
        table.on("favorites/list") { (p: ListParams, _) in
            let (sort, lang) = try p.validated()
            let rows = try await favorites.rows()
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
