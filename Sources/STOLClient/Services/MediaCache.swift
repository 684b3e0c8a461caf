import Foundation
import STOLProtocol
#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

/// An installed media pack's id.
public typealias MediaPackID = String

/// Provides images for taxa from the bundle or optional media packs (the specification's §10.6).
///
/// Differences from the specification: images come as data (`MediaImage`, with its size, credit
/// and licence), in a size, since Linux has no image type; `image(for:)` makes the platform's
/// image from it where there is one (UIKit, AppKit). Reads answer nil, empty or 0 when the
/// engine cannot answer (their signatures cannot throw).
public protocol MediaCache: AnyObject, Sendable {
    /// The image of a taxon in `size` (or its genus's, said so in `fallbackFrom`), or nil if not available.
    func imageData(for taxonID: TaxonID, size: ImageSize) async -> MediaImage?
    /// Return all available media packs: the bundled photographs, then the installed ones.
    func availableMediaPacks() async -> [MediaPack]
    /// Total storage used by optional (non-bundled) media packs.
    func optionalMediaStorageBytes() async -> Int64
    /// Delete an optional media pack.
    func deleteMediaPack(id: MediaPackID) async throws
}

#if canImport(UIKit)
/// The platform's image type.
public typealias PlatformImage = UIImage
#elseif canImport(AppKit)
/// The platform's image type.
public typealias PlatformImage = NSImage
#endif

#if canImport(UIKit) || canImport(AppKit)
extension MediaCache {
    /// Return the image for a taxon, or nil if not available (the page size).
    public func image(for taxonID: TaxonID) async -> PlatformImage? {
        guard let bytes = await imageData(for: taxonID, size: .page)?.bytes else { return nil }
        return PlatformImage(data: bytes)
    }
}
#endif

/// `MediaCache` over the engine's `media/image`, `media/packs` and `media/deletePack`.
public final class EngineMediaCache: MediaCache {
    public let client: STOLClient

    public init(client: STOLClient) {
        self.client = client
    }

    public func imageData(for taxonID: TaxonID, size: ImageSize = .page) async -> MediaImage? {
        guard case .one(let image)? = try? await client.send(MediaImageRequest(taxonId: taxonID, size: size)) else { return nil }
        return image
    }

    /// The images of many taxa at once (up to 50, one result page), in order; nil where one has none.
    public func imageData(for taxonIDs: [TaxonID], size: ImageSize = .thumbnail) async throws -> [MediaImage?] {
        try await client.send(MediaImageRequest(taxonIds: taxonIDs, size: size)).images
    }

    public func availableMediaPacks() async -> [MediaPack] {
        (try? await client.send(MediaPacksRequest()).packs) ?? []
    }

    public func optionalMediaStorageBytes() async -> Int64 {
        await availableMediaPacks().filter { !$0.bundled }.reduce(0) { $0 + $1.bytes }
    }

    public func deleteMediaPack(id: MediaPackID) async throws {
        _ = try await client.send(MediaDeletePackRequest(id: id))
    }
}
