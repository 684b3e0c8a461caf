import STOLJSON

// Every method that changes favourites is ordered, and every change that changed something is
// followed by `favorites/didChange {count}`.

/// `favorites/add`: adds one taxon. It says whether the taxon is in the active database, so it
/// sees earlier switches.
public struct FavoritesAddRequest: RPCRequest, Hashable {
    public typealias Response = FavoriteAdded
    public static let method = "favorites/add"
    public static let ordering = MethodOrdering(reads: [OrderedResource.activeDatabase], writes: [OrderedResource.favorites])

    public var taxonId: TaxonID

    public init(taxonId: TaxonID) {
        self.taxonId = taxonId
    }
}

/// `favorites/remove`: removes one taxon (`taxonId`) or a list (`taxonIds`).
public struct FavoritesRemoveRequest: RPCRequest, Hashable, OneOrManyTaxa {
    public typealias Response = FavoritesRemoved
    public static let method = "favorites/remove"
    public static let ordering = MethodOrdering.writes(OrderedResource.favorites)

    public var taxonId: TaxonID?
    public var taxonIds: [TaxonID]?

    public init() {}
}

/// `favorites/toggle`: adds a taxon that is not a favourite, removes one that is.
public struct FavoritesToggleRequest: RPCRequest, Hashable {
    public typealias Response = FavoriteToggled
    public static let method = "favorites/toggle"
    public static let ordering = MethodOrdering(reads: [OrderedResource.activeDatabase], writes: [OrderedResource.favorites])

    public var taxonId: TaxonID

    public init(taxonId: TaxonID) {
        self.taxonId = taxonId
    }
}

/// `favorites/clear`: Clear All, leaving no trace of what was there.
public struct FavoritesClearRequest: RPCRequest, Hashable {
    public typealias Response = FavoritesRemoved
    public static let method = "favorites/clear"
    public static let ordering = MethodOrdering.writes(OrderedResource.favorites)
    public init() {}
}

/// `favorites/contains`: whether one taxon (`taxonId`), or each of a list (`taxonIds`), is a favourite.
public struct FavoritesContainsRequest: RPCRequest, Hashable, OneOrManyTaxa {
    public typealias Response = FavoritesContainment
    public static let method = "favorites/contains"
    public static let ordering = MethodOrdering.reads(OrderedResource.favorites)

    public var taxonId: TaxonID?
    public var taxonIds: [TaxonID]?

    public init() {}
}

/// `favorites/count`.
public struct FavoritesCountRequest: RPCRequest, Hashable {
    public typealias Response = FavoritesCount
    public static let method = "favorites/count"
    public static let ordering = MethodOrdering.reads(OrderedResource.favorites)
    public init() {}
}

/// `favorites/storageBytes`: the size of the favourites file.
public struct FavoritesStorageBytesRequest: RPCRequest, Hashable {
    public typealias Response = FavoritesStorage
    public static let method = "favorites/storageBytes"
    public static let ordering = MethodOrdering.reads(OrderedResource.favorites)
    public init() {}
}

/// `favorites/status`: count, size, and what start-up recovered or moved aside.
public struct FavoritesStatusRequest: RPCRequest, Hashable {
    public typealias Response = FavoritesStatus
    public static let method = "favorites/status"
    public static let ordering = MethodOrdering.reads(OrderedResource.favorites)
    public init() {}
}

/// `favorites/list`: every favourite with its taxon's names, sorted.
public struct FavoritesListRequest: RPCRequest, Hashable {
    public typealias Response = FavoritesList
    public static let method = "favorites/list"
    public static let ordering = MethodOrdering.reads(OrderedResource.favorites)

    public var sort: FavoritesSort?
    public var lang: String?

    public init(sort: FavoritesSort? = nil, lang: String? = nil) {
        self.sort = sort
        self.lang = lang
    }
}

/// `favorites/export`: the list as plain text, names only.
public struct FavoritesExportRequest: RPCRequest, Hashable {
    public typealias Response = ExportedText
    public static let method = "favorites/export"
    public static let ordering = MethodOrdering.reads(OrderedResource.favorites)

    public var sort: FavoritesSort?
    public var lang: String?

    public init(sort: FavoritesSort? = nil, lang: String? = nil) {
        self.sort = sort
        self.lang = lang
    }
}

/// `favorites/didChange {count}`: the favourites changed, here or in another engine on the same
/// data directory; every open view should refresh.
public struct FavoritesDidChangeNotification: RPCNotification, Hashable {
    public static let method = "favorites/didChange"

    public var count: Int

    public init(count: Int) {
        self.count = count
    }
}

/// `favorites/add`'s answer.
public struct FavoriteAdded: Codable, Hashable, Sendable {
    /// False when it was a favourite already.
    public var added: Bool
    /// False when the active database has no such taxon (it is added all the same).
    public var available: Bool

    public init(added: Bool, available: Bool) {
        self.added = added
        self.available = available
    }
}

/// `favorites/toggle`'s answer.
public struct FavoriteToggled: Codable, Hashable, Sendable {
    /// The new state.
    public var isFavorite: Bool
    public var available: Bool

    public init(isFavorite: Bool, available: Bool) {
        self.isFavorite = isFavorite
        self.available = available
    }
}

/// `favorites/remove`'s and `favorites/clear`'s answer.
public struct FavoritesRemoved: Codable, Hashable, Sendable {
    /// How many favourites were removed.
    public var removed: Int

    public init(removed: Int) {
        self.removed = removed
    }
}

/// `favorites/contains`' answer: `{"isFavorite": …}` for one id, `{"favorites": {"<id>": …}}` for a list.
public enum FavoritesContainment: Codable, Hashable, Sendable, JSONWritable {
    case one(Bool)
    case list([TaxonID: Bool])

    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            switch self {
            case .one(let isFavorite): o.member("isFavorite", isFavorite)
            case .list(let byID): o.member("favorites", Self.object(byID))
            }
        }
    }

    private static func object(_ byID: [TaxonID: Bool]) -> JSONValue {
        .object(byID.sorted { $0.key < $1.key }.map { (key: String($0.key), value: .bool($0.value)) })
    }

    public func encode(to encoder: any Encoder) throws {
        var bytes: [UInt8] = []
        writeJSON(into: &bytes)
        try RawJSON(bytes: bytes).encode(to: encoder)
    }

    enum CodingKeys: String, CodingKey { case isFavorite, favorites }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let one = try container.decodeIfPresent(Bool.self, forKey: .isFavorite) {
            self = .one(one)
            return
        }
        let byName = try container.decode([String: Bool].self, forKey: .favorites)
        var byID: [TaxonID: Bool] = [:]
        for (name, value) in byName {
            guard let id = TaxonID(name) else {
                throw DecodingError.dataCorruptedError(forKey: .favorites, in: container, debugDescription: "\(name) is not a taxon id")
            }
            byID[id] = value
        }
        self = .list(byID)
    }
}

/// `favorites/count`'s answer.
public struct FavoritesCount: Codable, Hashable, Sendable {
    public var count: Int

    public init(count: Int) {
        self.count = count
    }
}

/// `favorites/storageBytes`' answer.
public struct FavoritesStorage: Codable, Hashable, Sendable {
    public var bytes: Int64

    public init(bytes: Int64) {
        self.bytes = bytes
    }
}

/// `favorites/status`' answer.
public struct FavoritesStatus: Codable, Hashable, Sendable {
    public var count: Int
    public var bytes: Int64
    /// What start-up recovered; null (not omitted) when nothing was.
    public var recovery: FavoritesRecovery?
    /// Damaged copies moved aside, until `favorites/clear` deletes them.
    public var movedAside: [String]

    public init(count: Int, bytes: Int64, recovery: FavoritesRecovery?, movedAside: [String]) {
        self.count = count
        self.bytes = bytes
        self.recovery = recovery
        self.movedAside = movedAside
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(count, forKey: .count)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(recovery, forKey: .recovery)  // null when nothing was recovered
        try container.encode(movedAside, forKey: .movedAside)
    }

    enum CodingKeys: String, CodingKey { case count, bytes, recovery, movedAside }
}

/// `favorites/list`' answer.
public struct FavoritesList: Codable, Hashable, Sendable {
    public var favorites: [FavoriteEntry]

    public init(favorites: [FavoriteEntry]) {
        self.favorites = favorites
    }
}
