import Foundation
import STOLRPC

/// `media/import`, `media/cancelImport`, `media/packs`, `media/image`, `media/deletePack`.
///
/// Images travel as base64 inside the response rather than as a file path: the client may run
/// in a sandbox that cannot open the engine's files, and a path would reveal the user's
/// directory layout to whatever the client logs.
enum MediaMethods {
    struct ImportParams: Decodable, Sendable {
        var path: String
    }

    struct ImageParams: Decodable, Sendable {
        var taxonId: Int64
    }

    struct IDParams: Decodable, Sendable {
        var id: String
    }

    struct Fallback: Encodable, Sendable {
        var taxonId: Int64
        var rank: String
        var scientificName: String
    }

    struct ImageResult: Encodable, Sendable {
        var taxonId: Int64
        var mimeType: String
        var width: Int
        var height: Int
        var credit: String
        var license: String
        var packId: String
        var data: String
        /// Set when the taxon has no image of its own and this is its genus's.
        var fallbackFrom: Fallback?
    }

    struct Packs: Encodable, Sendable {
        var packs: [MediaService.Pack]
    }

    static func result(_ image: MediaService.Image, fallback: Fallback?) -> ImageResult {
        ImageResult(taxonId: image.taxonID, mimeType: image.mimeType, width: image.width, height: image.height, credit: image.credit,
                    license: image.license, packId: image.packID, data: image.bytes.base64EncodedString(), fallbackFrom: fallback)
    }

    static func register(in table: inout MethodTable, engine: Engine) {
        let media = engine.media
        table.on("media/import") { (p: ImportParams, ctx) in
            guard !p.path.isEmpty else { throw RPCError.invalidParams(field: "path", "must be a file path") }
            let progress = ctx.progress
            progress?.begin(title: "Importing media pack", message: p.path)
            do {
                let pack = try await media.importPack(from: URL(fileURLWithPath: p.path)) { fraction, message in
                    progress?.report(fraction: fraction, message: message)
                }
                progress?.end(message: "imported")
                return pack
            } catch {
                if case .importFailure(let inner)? = error as? MediaError { progress?.end(message: "failed: \(inner.kind)") } else { progress?.end(message: "failed") }
                throw error
            }
        }
        table.on("media/cancelImport") { (_: NoParams, _) in
            ["cancelled": await media.cancelImport()]
        }
        table.on("media/packs") { (_: NoParams, _) in
            Packs(packs: await media.packs())
        }
        // A species without an image of its own shows its genus's, and says so.
        table.on("media/image") { (p: ImageParams, _) -> ImageResult? in
            let id = try Params.taxonID(p.taxonId, field: "taxonId")
            if let image = try await media.image(for: id) { return result(image, fallback: nil) }
            let store = await engine.store()
            guard let taxon = try? await store.taxon(id), let rank = taxon.rank, rank > .genus else { return nil }
            guard let genus = try await store.ancestors(id).last(where: { $0.rank == .genus }),
                  let image = try await media.image(for: genus.id) else { return nil }
            return result(image, fallback: Fallback(taxonId: genus.id, rank: "genus", scientificName: genus.scientificName))
        }
        table.on("media/deletePack", ordered: true) { (p: IDParams, _) in
            guard MediaPackSchema.isValidPackID(p.id) else {
                throw RPCError.invalidParams(field: "id", "must be a media pack id: letters, digits, '.', '_' or '-', not starting with '.'")
            }
            try await media.delete(p.id)
            return ["deleted": true]
        }
    }
}
