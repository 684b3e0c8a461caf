import Foundation
import STOLProtocol
import STOLRPC

/// `media/import`, `media/cancelImport`, `media/packs`, `media/image`, `media/deletePack`.
///
/// Images travel as base64 inside the response rather than as a file path: the client may run
/// in a sandbox that cannot open the engine's files, and a path would reveal the user's
/// directory layout to whatever the client logs.
enum MediaMethods {
    /// The most ids one `media/image` call takes: a page of results.
    static let maxIDs = 50

    /// The ids `request` asks for (`single` when `taxonId` named one), each checked.
    static func checkedIDs(_ request: MediaImageRequest) throws -> (ids: [Int64], single: Bool) {
        switch (request.taxonId, request.taxonIds) {
        case (let id?, nil):
            return ([try Params.taxonID(id, field: "taxonId")], true)
        case (nil, let ids?):
            guard !ids.isEmpty else { throw RPCError.invalidParams(field: "taxonIds", "must hold at least one taxon id") }
            guard ids.count <= maxIDs else {
                throw RPCError.invalidParams(field: "taxonIds", "holds \(ids.count) ids; at most \(maxIDs) per call: split the list",
                                             ["limit": .integer(maxIDs), "count": .integer(ids.count)])
            }
            return (try ids.enumerated().map { try Params.taxonID($1, field: "taxonIds.\($0)") }, false)
        case (nil, nil):
            throw RPCError.invalidParams(field: "taxonId", "is required (or taxonIds)")
        case (_?, _?):
            throw RPCError.invalidParams(field: "taxonIds", "give taxonId or taxonIds, not both")
        }
    }

    static func image(_ image: MediaService.Image, fallback: MediaImage.Fallback?) -> MediaImage {
        MediaImage(taxonId: image.taxonID, mimeType: image.mimeType, width: image.width, height: image.height, credit: image.credit,
                   license: image.license, author: image.author, source: image.source, depicts: image.depicts, packId: image.packID,
                   data: image.bytes.base64EncodedString(), fallbackFrom: fallback)
    }

    /// The image of taxon `id` in `size` (nil: the largest), or, for a species without one, its
    /// genus's, said so; nil when neither has one (also for ids the database does not know).
    static func image(of id: Int64, size: ImageSize?, engine: Engine) async throws -> MediaImage? {
        let store = await engine.store()
        if let found = try await engine.media.image(for: id, size: size, in: store.database) { return image(found, fallback: nil) }
        guard let taxon = try? await store.taxon(id), let rank = taxon.rank, rank > .genus else { return nil }
        guard let genus = try await store.ancestors(id).last(where: { $0.rank == .genus }),
              let found = try await engine.media.image(for: genus.id, size: size, in: store.database) else { return nil }
        return image(found, fallback: MediaImage.Fallback(taxonId: genus.id, rank: "genus", scientificName: genus.scientificName))
    }

    static func register(in table: inout MethodTable, engine: Engine) {
        let media = engine.media
        table.on(MediaImportRequest.self) { p, ctx in
            let file = try Params.absoluteFile(p.path)
            let progress = ctx.progress
            progress?.begin(title: "Importing media pack", message: p.path)
            do {
                let pack = try await media.importPack(from: file) { fraction, message in
                    progress?.report(fraction: fraction, message: message)
                }
                progress?.end(message: "imported")
                return pack
            } catch {
                if case .importFailure(let inner)? = error as? MediaError { progress?.end(message: "failed: \(inner.kind.rawValue)") } else { progress?.end(message: "failed") }
                throw error
            }
        }
        table.on(MediaCancelImportRequest.self) { _, _ in
            ImportCancellation(cancelled: await media.cancelImport())
        }
        table.on(MediaPacksRequest.self) { _, _ in
            MediaPacks(packs: await media.packs(matchingIn: await engine.databases.current()))
        }
        // A species without an image of its own shows its genus's, and says so.
        table.on(MediaImageRequest.self) { p, _ -> MediaImageResponse in
            let (ids, single) = try checkedIDs(p)
            var entries: [MediaImageEntry] = []
            for id in ids {
                try Task.checkCancellation()
                entries.append(MediaImageEntry(taxonId: id, image: try await image(of: id, size: p.size, engine: engine)))
            }
            return single ? .one(entries[0].image) : .list(entries)
        }
        table.on(MediaDeletePackRequest.self) { p, _ in
            guard MediaPackSchema.isValidPackID(p.id) else {
                throw RPCError.invalidParams(field: "id", "must be a media pack id: letters, digits, '.', '_' or '-', not starting with '.'")
            }
            try await media.delete(p.id)
            return MediaPackDeletion(deleted: true)
        }
    }
}
