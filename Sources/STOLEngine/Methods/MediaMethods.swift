import Foundation
import STOLRPC

/// `media/import`, `media/cancelImport`, `media/packs`, `media/image`, `media/deletePack`.
///
/// Images travel as base64 inside the response rather than as a file path: the client may run
/// in a sandbox that cannot open the engine's files, and a path would reveal the user's
/// directory layout to whatever the client logs.
enum MediaMethods {
    struct ImportParams: Codable, Sendable {
        var path: String
    }

    struct ImageParams: Codable, Sendable {
        var taxonId: Int64
    }

    struct IDParams: Codable, Sendable {
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

    /// `{"cancelled": …}`.
    struct Cancelled: Encodable, Sendable {
        var cancelled: Bool
    }

    /// `{"deleted": true}`.
    struct Deleted: Encodable, Sendable {
        var deleted: Bool
    }

    /// The installed packs, for ordering.
    static let resource = "mediaPacks"

    /// `media/import`: verifies and installs a media pack, with progress.
    enum Import: RPCMethod {
        typealias Params = ImportParams
        typealias Result = MediaService.Pack
        static let name = "media/import"
    }

    /// `media/cancelImport`: stops the media import in progress.
    enum CancelImport: RPCMethod {
        typealias Result = Cancelled
        static let name = "media/cancelImport"
    }

    /// `media/packs`: the installed packs.
    enum ListPacks: RPCMethod {
        typealias Result = Packs
        static let name = "media/packs"
        static let ordering = MethodOrdering.reads(resource)
    }

    /// `media/image`: a taxon's image (or its genus's, said so), as base64; null when none.
    enum Image: RPCMethod {
        typealias Params = ImageParams
        typealias Result = ImageResult?
        static let name = "media/image"
        static let ordering = MethodOrdering.reads(resource)
    }

    /// `media/deletePack`: deletes an installed pack.
    enum DeletePack: RPCMethod {
        typealias Params = IDParams
        typealias Result = Deleted
        static let name = "media/deletePack"
        static let ordering = MethodOrdering.writes(resource)
    }

    static func register(in table: inout MethodTable, engine: Engine) {
        let media = engine.media
        table.on(Import.self) { p, ctx in
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
                if case .importFailure(let inner)? = error as? MediaError { progress?.end(message: "failed: \(inner.kind)") } else { progress?.end(message: "failed") }
                throw error
            }
        }
        table.on(CancelImport.self) { _, _ in
            Cancelled(cancelled: await media.cancelImport())
        }
        table.on(ListPacks.self) { _, _ in
            Packs(packs: await media.packs())
        }
        // A species without an image of its own shows its genus's, and says so.
        table.on(Image.self) { p, _ -> ImageResult? in
            let id = try Params.taxonID(p.taxonId, field: "taxonId")
            if let image = try await media.image(for: id) { return result(image, fallback: nil) }
            let store = await engine.store()
            guard let taxon = try? await store.taxon(id), let rank = taxon.rank, rank > .genus else { return nil }
            guard let genus = try await store.ancestors(id).last(where: { $0.rank == .genus }),
                  let image = try await media.image(for: genus.id) else { return nil }
            return result(image, fallback: Fallback(taxonId: genus.id, rank: "genus", scientificName: genus.scientificName))
        }
        table.on(DeletePack.self) { p, _ in
            guard MediaPackSchema.isValidPackID(p.id) else {
                throw RPCError.invalidParams(field: "id", "must be a media pack id: letters, digits, '.', '_' or '-', not starting with '.'")
            }
            try await media.delete(p.id)
            return Deleted(deleted: true)
        }
    }
}
