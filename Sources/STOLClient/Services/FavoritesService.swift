import Foundation
import STOLProtocol

/// Local-only, privacy-safe favourites storage (the specification's §10.8).
///
/// Differences from the specification: `isFavourite` answers false when the engine cannot
/// answer (its signature cannot throw); `FavouriteEntry` also carries the protocol's
/// `FavoriteEntry` with the taxon's names (`details`). Changes, here or in another engine on the
/// same data directory, come as `FavoritesDidChangeNotification` (`STOLClient.notifications`).
public protocol FavoritesService: AnyObject, Sendable {
    /// Returns true if the taxon is currently marked as a favourite.
    func isFavourite(taxonID: TaxonID) async -> Bool
    /// Add a taxon to favourites. No-op if already favourited.
    func addFavourite(taxonID: TaxonID) async throws
    /// Remove a taxon from favourites. No-op if not favourited.
    func removeFavourite(taxonID: TaxonID) async throws
    /// Toggle favourite status. Returns the new favourite state (true = now favourited).
    @discardableResult
    func toggleFavourite(taxonID: TaxonID) async throws -> Bool
    /// All favourited taxon IDs, ordered by most recently added first.
    func allFavourites() async throws -> [FavouriteEntry]
    /// Total number of favourited taxa.
    func favouritesCount() async throws -> Int
    /// Permanently delete all favourites.
    func clearAllFavourites() async throws
    /// Approximate on-disk size of the favourites database in bytes.
    func storageBytes() async throws -> Int64
}

/// A single favourite record, as the specification names it. Contains no PII.
public struct FavouriteEntry: Identifiable, Sendable, Hashable {
    public var id: TaxonID { taxonID }
    /// Opaque species database key. Not a user identifier.
    public let taxonID: TaxonID
    /// When the species was favourited.
    public let createdAt: Date
    /// The entry as the engine gives it: the taxon's names in the active database, and whether
    /// the database has it at all.
    public let details: FavoriteEntry

    public init(_ details: FavoriteEntry) {
        self.details = details
        taxonID = details.taxonId
        createdAt = Self.date(details.createdAt) ?? Date(timeIntervalSince1970: 0)
    }

    /// `2026-01-31T09:15:02.123Z`, the format of `createdAt` on the wire.
    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}

/// `FavoritesService` over the engine's `favorites/*` methods.
public final class EngineFavoritesService: FavoritesService {
    public let client: STOLClient
    /// The language of the names in `allFavourites`.
    public let lang: String

    public init(client: STOLClient, lang: String = "en") {
        self.client = client
        self.lang = lang
    }

    public func isFavourite(taxonID: TaxonID) async -> Bool {
        (try? await client.send(FavoritesContainsRequest(taxonId: taxonID))) == .one(true)
    }

    public func addFavourite(taxonID: TaxonID) async throws {
        _ = try await client.send(FavoritesAddRequest(taxonId: taxonID))
    }

    public func removeFavourite(taxonID: TaxonID) async throws {
        _ = try await client.send(FavoritesRemoveRequest(taxonId: taxonID))
    }

    @discardableResult
    public func toggleFavourite(taxonID: TaxonID) async throws -> Bool {
        try await client.send(FavoritesToggleRequest(taxonId: taxonID)).isFavorite
    }

    public func allFavourites() async throws -> [FavouriteEntry] {
        try await client.send(FavoritesListRequest(sort: .recent, lang: lang)).favorites.map(FavouriteEntry.init)
    }

    public func favouritesCount() async throws -> Int {
        try await client.send(FavoritesCountRequest()).count
    }

    public func clearAllFavourites() async throws {
        _ = try await client.send(FavoritesClearRequest())
    }

    public func storageBytes() async throws -> Int64 {
        try await client.send(FavoritesStorageBytesRequest()).bytes
    }
}
