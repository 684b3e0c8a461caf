import Foundation
import STOLProtocol
import STOLRPC

/// `media/import`, `media/cancelImport`, `media/packs`, `media/image`, `media/deletePack`.
enum MediaMethods {
    /// The most ids one `media/image` call takes: a page of results.
    static let maxIDs = 50

    /// The image of taxon `id` in `size` (nil: the largest), or, for a species without one, its
    /// genus's, said so; nil when neither has one (also for ids the database does not know).
    static func image(of id: Int64, size: ImageSize?, engine: Engine) async throws -> MediaImage? {
        let store = await engine.store()
        if let found = try await engine.media.image(for: id, size: size, in: store.database) { return found }
        guard let taxon = try? await store.taxon(id), let rank = taxon.rank, rank > .genus else { return nil }
        guard let genus = try await store.ancestors(id).last(where: { $0.rank == .genus }),
              var found = try await engine.media.image(for: genus.id, size: size, in: store.database) else { return nil }
        found.fallbackFrom = MediaImage.Fallback(taxonId: genus.id, rank: "genus", scientificName: genus.scientificName)
        return found
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
            let (ids, single) = try Params.taxonIDs(p, allowsEmpty: false, maxCount: maxIDs)
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
