import STOLRPC
import STOLJSON

/// The `favorites/*` methods. Every method that changes state is ordered, and every change that
/// changed something is followed by `favorites/didChange {count}`.
enum FavoritesMethods {
    struct IDParams: Codable, Sendable {
        var taxonId: Int64
    }

    /// `taxonId` or `taxonIds`, exactly one of them.
    struct IDsParams: Codable, Sendable {
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

    struct ListParams: Codable, Sendable {
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

    struct AddResult: Codable, Sendable {
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
        if change.changed || outside != nil { ctx.notify(.favoritesChanged(count: change.count)) }
    }

    /// Announces a change another engine made, found by a read.
    static func announceOutside(_ ctx: RequestContext, _ favorites: FavoritesService) async {
        if let count = await favorites.takeOutsideChange() { ctx.notify(.favoritesChanged(count: count)) }
    }

    /// `{"removed": n}`.
    struct Removed: Encodable, Sendable {
        var removed: Int
    }

    /// `favorites/contains` with one id: `{"isFavorite": …}`; with a list: `{"favorites": {"id": …}}`.
    struct Containment: JSONWritable, Sendable {
        var single: Bool?
        var byID: [Int64: Bool] = [:]

        func writeJSON(into out: inout [UInt8]) {
            JSONObject.write(into: &out) { o in
                if let single {
                    o.member("isFavorite", single)
                } else {
                    o.member("favorites", byIDObject)
                }
            }
        }

        private var byIDObject: JSONValue {
            .object(byID.sorted { $0.key < $1.key }.map { (key: String($0.key), value: .bool($0.value)) })
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(single.map { JSONValue.object(["isFavorite": .bool($0)]) } ?? .object(["favorites": byIDObject]))
        }
    }

    /// `{"count": n}`.
    struct Count: Encodable, Sendable {
        var count: Int
    }

    /// `{"bytes": n}`.
    struct Bytes: Encodable, Sendable {
        var bytes: Int64
    }

    /// `{"favorites": [...]}`.
    struct Listing: Encodable, Sendable {
        var favorites: [FavoriteEntry]
    }

    /// `{"text": "..."}`.
    struct ExportText: Encodable, Sendable {
        var text: String
    }

    /// The resource every favourites method reads or writes, for ordering.
    static let resource = "favorites"

    /// `favorites/add`: adds one taxon.
    enum Add: RPCMethod {
        typealias Params = IDParams
        typealias Result = AddResult
        static let name = "favorites/add"
        /// It says whether the taxon is in the active database, so it sees earlier switches.
        static let ordering = MethodOrdering(reads: [ReferenceMethods.resource], writes: [resource])
    }

    /// `favorites/remove`: removes one taxon or a list.
    enum Remove: RPCMethod {
        typealias Params = IDsParams
        typealias Result = Removed
        static let name = "favorites/remove"
        static let ordering = MethodOrdering.writes(resource)
    }

    /// `favorites/toggle`: adds a taxon that is not a favourite, removes one that is.
    enum Toggle: RPCMethod {
        typealias Params = IDParams
        typealias Result = ToggleResult
        static let name = "favorites/toggle"
        /// It says whether the taxon is in the active database, so it sees earlier switches.
        static let ordering = MethodOrdering(reads: [ReferenceMethods.resource], writes: [resource])
    }

    /// `favorites/clear`: Clear All, leaving no trace of what was there.
    enum Clear: RPCMethod {
        typealias Result = Removed
        static let name = "favorites/clear"
        static let ordering = MethodOrdering.writes(resource)
    }

    /// `favorites/contains`: whether one taxon, or each of a list, is a favourite.
    enum Contains: RPCMethod {
        typealias Params = IDsParams
        typealias Result = Containment
        static let name = "favorites/contains"
        static let ordering = MethodOrdering.reads(resource)
    }

    /// `favorites/count`.
    enum CountFavorites: RPCMethod {
        typealias Result = Count
        static let name = "favorites/count"
        static let ordering = MethodOrdering.reads(resource)
    }

    /// `favorites/storageBytes`: the size of the favourites file.
    enum StorageBytes: RPCMethod {
        typealias Result = Bytes
        static let name = "favorites/storageBytes"
        static let ordering = MethodOrdering.reads(resource)
    }

    /// `favorites/status`: count, size, and what start-up recovered or moved aside.
    enum StatusOfFavorites: RPCMethod {
        typealias Result = Status
        static let name = "favorites/status"
        static let ordering = MethodOrdering.reads(resource)
    }

    /// `favorites/list`: every favourite with its taxon's names, sorted.
    enum List: RPCMethod {
        typealias Params = ListParams
        typealias Result = Listing
        static let name = "favorites/list"
        static let ordering = MethodOrdering.reads(resource)
    }

    /// `favorites/export`: the list as plain text, names only.
    enum Export: RPCMethod {
        typealias Params = ListParams
        typealias Result = ExportText
        static let name = "favorites/export"
        static let ordering = MethodOrdering.reads(resource)
    }

    static func register(in table: inout MethodTable, engine: Engine) {
        let favorites = engine.favorites

        table.on(Add.self) { p, ctx in
            let id = try Params.taxonID(p.taxonId, field: "taxonId")
            let available = try await FavoritesListing.isAvailable(id, in: await engine.databases.current())
            let change = try await favorites.add(id)
            await announce(change, ctx, favorites)
            return AddResult(added: change.changed, available: available)
        }
        table.on(Remove.self) { p, ctx in
            let (ids, _) = try p.validated()
            let (removed, change) = try await favorites.remove(ids)
            await announce(change, ctx, favorites)
            return Removed(removed: removed)
        }
        table.on(Toggle.self) { p, ctx in
            let id = try Params.taxonID(p.taxonId, field: "taxonId")
            let available = try await FavoritesListing.isAvailable(id, in: await engine.databases.current())
            let (isFavorite, change) = try await favorites.toggle(id)
            await announce(change, ctx, favorites)
            return ToggleResult(isFavorite: isFavorite, available: available)
        }
        table.on(Clear.self) { _, ctx in
            let (removed, change) = try await favorites.clear()
            await announce(change, ctx, favorites)
            return Removed(removed: removed)
        }
        table.on(Contains.self) { p, ctx in
            let (ids, single) = try p.validated()
            let result: Containment
            if single {
                result = Containment(single: try await favorites.contains(ids[0]))
            } else {
                result = Containment(single: nil, byID: try await favorites.contains(ids))
            }
            await announceOutside(ctx, favorites)
            return result
        }
        table.on(CountFavorites.self) { _, ctx in
            let count = try await favorites.count()
            await announceOutside(ctx, favorites)
            return Count(count: count)
        }
        table.on(StorageBytes.self) { _, _ in
            Bytes(bytes: try await favorites.storageBytes())
        }
        table.on(StatusOfFavorites.self) { _, ctx in
            let status = try await favorites.status()
            await announceOutside(ctx, favorites)
            return Status(count: status.count, bytes: status.bytes, recovery: status.recovery, movedAside: status.movedAside)
        }
        table.on(List.self) { p, ctx in
            let (sort, lang) = try p.validated()
            let rows = try await favorites.rows()
            await announceOutside(ctx, favorites)
            return Listing(favorites: try await FavoritesListing.entries(rows, in: await engine.databases.current(), lang: lang, sort: sort))
        }
        table.on(Export.self) { p, _ in
            let (sort, lang) = try p.validated()
            let rows = try await favorites.rows()
            let entries = try await FavoritesListing.entries(rows, in: await engine.databases.current(), lang: lang, sort: sort)
            return ExportText(text: FavoritesExport.text(entries, lang: lang))
        }
    }
}
