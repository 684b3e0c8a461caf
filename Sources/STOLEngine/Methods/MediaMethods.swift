import Foundation
import STOLRPC
import STOLJSON

/// `media/import`, `media/cancelImport`, `media/packs`, `media/image`, `media/deletePack`.
///
/// Images travel as base64 inside the response rather than as a file path: the client may run
/// in a sandbox that cannot open the engine's files, and a path would reveal the user's
/// directory layout to whatever the client logs.
enum MediaMethods {
    struct ImportParams: Codable, Sendable {
        var path: String
    }

    /// `taxonId` (one image, or null) or `taxonIds` (a list, one entry per id), and a `size`.
    struct ImageParams: Codable, Sendable {
        var taxonId: Int64?
        var taxonIds: [Int64]?
        var size: String?

        init(taxonId: Int64? = nil, taxonIds: [Int64]? = nil, size: String? = nil) {
            self.taxonId = taxonId
            self.taxonIds = taxonIds
            self.size = size
        }

        /// The ids asked for (`single` when `taxonId` named one) and the size, each checked.
        func validated() throws -> (ids: [Int64], single: Bool, size: ImageSize?) {
            let size = try MediaMethods.size(self.size)
            switch (taxonId, taxonIds) {
            case (let id?, nil):
                return ([try Params.taxonID(id, field: "taxonId")], true, size)
            case (nil, let ids?):
                guard !ids.isEmpty else { throw RPCError.invalidParams(field: "taxonIds", "must hold at least one taxon id") }
                guard ids.count <= maxIDs else {
                    throw RPCError.invalidParams(field: "taxonIds", "holds \(ids.count) ids; at most \(maxIDs) per call: split the list",
                                                 ["limit": .integer(maxIDs), "count": .integer(ids.count)])
                }
                return (try ids.enumerated().map { try Params.taxonID($1, field: "taxonIds.\($0)") }, false, size)
            case (nil, nil):
                throw RPCError.invalidParams(field: "taxonId", "is required (or taxonIds)")
            case (_?, _?):
                throw RPCError.invalidParams(field: "taxonIds", "give taxonId or taxonIds, not both")
            }
        }
    }

    /// The most ids one `media/image` call takes: a page of results.
    static let maxIDs = 50

    /// An `ImageSize` by name; nil (the largest image) when absent.
    static func size(_ value: String?, field: String = "size") throws -> ImageSize? {
        guard let value else { return nil }
        guard let size = ImageSize(rawValue: value) else {
            let names = ImageSize.allCases.map(\.rawValue)
            throw RPCError.invalidParams(field: field, "must be one of \(names.joined(separator: ", "))", ["allowed": .array(names.map { .string($0) })])
        }
        return size
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
        /// The photographer, and the page the image comes from (bundled photographs).
        var author: String?
        var source: String?
        /// The species a photograph shows when it stands for another taxon (its genus, or a
        /// domestic form under its species name).
        var depicts: String?
        var packId: String
        var data: String
        /// Set when the taxon has no image of its own and this is its genus's.
        var fallbackFrom: Fallback?
    }

    /// One entry of a list answer: the id asked for and its image, or null.
    struct ImageEntry: Encodable, Sendable {
        var taxonId: Int64
        var image: ImageResult?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(taxonId, forKey: .taxonId)
            try container.encode(image, forKey: .image)  // null, not absent, when there is none
        }

        enum CodingKeys: String, CodingKey { case taxonId, image }
    }

    /// `media/image`'s answer: one image or null for `taxonId`, `{images: [...]}` for `taxonIds`.
    enum ImageAnswer: Encodable, Sendable {
        case one(ImageResult?)
        case list([ImageEntry])

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .one(let image):
                var container = encoder.singleValueContainer()
                try container.encode(image)
            case .list(let entries):
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(entries, forKey: .images)
            }
        }

        enum CodingKeys: String, CodingKey { case images }
    }

    struct Packs: Encodable, Sendable {
        var packs: [MediaService.Pack]
    }

    static func result(_ image: MediaService.Image, fallback: Fallback?) -> ImageResult {
        ImageResult(taxonId: image.taxonID, mimeType: image.mimeType, width: image.width, height: image.height, credit: image.credit,
                    license: image.license, author: image.author, source: image.source, depicts: image.depicts, packId: image.packID,
                    data: image.bytes.base64EncodedString(), fallbackFrom: fallback)
    }

    /// The image of taxon `id` in `size` (nil: the largest), or, for a species without one, its
    /// genus's, said so; nil when neither has one (also for ids the database does not know).
    static func image(of id: Int64, size: ImageSize?, engine: Engine) async throws -> ImageResult? {
        let store = await engine.store()
        if let image = try await engine.media.image(for: id, size: size, in: store.database) { return result(image, fallback: nil) }
        guard let taxon = try? await store.taxon(id), let rank = taxon.rank, rank > .genus else { return nil }
        guard let genus = try await store.ancestors(id).last(where: { $0.rank == .genus }),
              let image = try await engine.media.image(for: genus.id, size: size, in: store.database) else { return nil }
        return result(image, fallback: Fallback(taxonId: genus.id, rank: "genus", scientificName: genus.scientificName))
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

    /// `media/image`: a taxon's image (or its genus's, said so) in a size, as base64; null when
    /// none. With `taxonIds`, one entry per id, to fill a result list in one call.
    enum Image: RPCMethod {
        typealias Params = ImageParams
        typealias Result = ImageAnswer
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
            Packs(packs: await media.packs(matchingIn: await engine.databases.current()))
        }
        // A species without an image of its own shows its genus's, and says so.
        table.on(Image.self) { p, _ -> ImageAnswer in
            let (ids, single, size) = try p.validated()
            var entries: [ImageEntry] = []
            for id in ids {
                try Task.checkCancellation()
                entries.append(ImageEntry(taxonId: id, image: try await image(of: id, size: size, engine: engine)))
            }
            return single ? .one(entries[0].image) : .list(entries)
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
