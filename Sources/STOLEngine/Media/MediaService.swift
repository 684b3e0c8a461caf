import Foundation
import GRDB
import Logging
import STOLSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import STOLProtocol

/// Why a media request failed. Import failures carry the same kinds as `database/import` but
/// answer -32021, so a client can tell which import failed.
public enum MediaError: Error, Sendable, Equatable, CustomStringConvertible {
    case importFailure(ReferenceError)
    case packNotFound(String)
    case packNotDeletable(String)
    /// The pack's file could not be deleted (permissions, a read-only disk).
    case deleteFailed(id: String, detail: String)

    public var description: String {
        switch self {
        case .importFailure(let error): "\(error)"
        case .packNotFound(let id): "no media pack \(id) is installed"
        case .packNotDeletable(let id): "the media pack \(id) ships with the app and cannot be deleted"
        case let .deleteFailed(id, detail): "the media pack \(id) could not be deleted: \(detail)"
        }
    }
}

/// The images `media/image` serves: the photographs that ship with the engine (`BundledMedia`)
/// and the packs installed in `<data-dir>/Media/<packId>.sqlite`, imported from signed
/// `.stolmedia` files through the same staged, verified path as reference databases. An
/// installed pack's image of a taxon is served before a bundled one: packs override and add.
public actor MediaService {
    /// Ids of packs that ship with the app; `media/deletePack` refuses them, and no import takes them.
    public static let bundledPackIDs: Set<String> = [BundledMedia.packID]

    public nonisolated let directory: URL
    public nonisolated let importer: StolFileImporter
    private let logger: Logger
    private var slot = ImportSlot()
    private var open: [String: DatabaseQueue] = [:]
    /// The bundled photographs, read on first use; nil when they could not be read (logged).
    private var bundled: BundledMedia??
    private let loadBundled: @Sendable () throws -> BundledMedia
    /// Where the bundled photographs go in the last database asked about, held weakly: a
    /// database switched away from (and perhaps deleted) is not kept open for it.
    private struct Matched {
        weak var database: TaxonomyDatabase?
        var matches: BundledMedia.Matches
    }
    private var matched: Matched?

    public init(dataDirectory: URL, scratch: ScratchDirectory, trustedKeys: [[UInt8]], limits: StolFileImporter.Limits, logger: Logger,
                bundled: @escaping @Sendable () throws -> BundledMedia = BundledMedia.embedded) {
        directory = dataDirectory.appendingPathComponent("Media")
        importer = StolFileImporter(scratch: scratch, trustedKeys: trustedKeys, limits: limits, kind: .media)
        self.logger = logger
        self.loadBundled = bundled
    }

    nonisolated func url(_ id: String) -> URL { directory.appendingPathComponent("\(id).sqlite") }

    /// Installed pack ids, sorted. Blocking directory read; small.
    nonisolated func installedIDs() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".sqlite") }.map { String($0.dropLast(7)) }
            .filter { MediaPackSchema.isValidPackID($0) && !Self.bundledPackIDs.contains($0) }.sorted()
    }

    private func connection(_ id: String) throws -> DatabaseQueue {
        if let queue = open[id] { return queue }
        var config = Configuration()
        config.readonly = true
        config.label = "stol.media"
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA trusted_schema = OFF; PRAGMA query_only = 1;") }
        let queue = try DatabaseQueue(path: TaxonomyDatabase.immutableURI(url(id)), configuration: config)
        open[id] = queue
        return queue
    }

    /// The bundled photographs, read from the engine's resources once (off the pool).
    func bundledMedia() async -> BundledMedia? {
        if let bundled { return bundled }
        let load = loadBundled
        let result: BundledMedia?
        do { result = try await OffPool.run(load) } catch {
            logger.error("the bundled images cannot be read: \(error)")
            result = nil
        }
        bundled = .some(result)
        return result
    }

    /// Where the bundled photographs go in `database`, worked out once per database; unmatched
    /// photographs are logged then.
    func bundledMatches(in database: TaxonomyDatabase) async throws -> (BundledMedia, BundledMedia.Matches)? {
        guard let media = await bundledMedia() else { return nil }
        if let matched, matched.database === database { return (media, matched.matches) }
        let matches = try await database.read { db in try media.matches(in: db) }
        if !matches.unmatched.isEmpty {
            logger.info("bundled images: \(matches.unmatched.count) of \(media.photos.count) photographs match no taxon of the \(database.source.rawValue) database: \(matches.unmatched.joined(separator: ", "))")
        }
        matched = Matched(database: database, matches: matches)
        return (media, matches)
    }

    /// The bundled photographs as a pack (with what `database` lacks), then the installed packs by id.
    public func packs(matchingIn database: TaxonomyDatabase? = nil) async -> [MediaPack] {
        var result: [MediaPack] = []
        if let media = await bundledMedia() {
            var unmatched: [String]?
            if let database { unmatched = (try? await bundledMatches(in: database))?.1.unmatched }
            result.append(MediaPack(id: BundledMedia.packID, name: BundledMedia.packName, version: EngineInfo.version, bytes: media.bytes,
                               imageCount: media.photos.count, deletable: false, bundled: true, unmatched: unmatched))
        }
        for id in installedIDs() {
            guard let queue = try? connection(id) else { continue }
            let bytes = ((try? FileManager.default.attributesOfItem(atPath: url(id).path))?[.size] as? NSNumber)?.int64Value ?? 0
            let facts = try? await queue.read { db -> ([String: String], Int) in
                var info: [String: String] = [:]
                // Rows of another type (a pack installed before the import checked them) are skipped, never decoded.
                for row in try Row.fetchAll(db, sql: "SELECT key, value FROM media_info WHERE typeof(key) = 'text' AND typeof(value) = 'text'") {
                    info[row["key"]] = row["value"]
                }
                return (info, try Int.fetchOne(db, sql: "SELECT count(*) FROM images") ?? 0)
            }
            guard let (info, count) = facts else { continue }
            result.append(MediaPack(id: id, name: info["name"] ?? id, version: info["version"] ?? "", bytes: bytes, imageCount: count, deletable: true))
        }
        return result
    }

    /// An image a taxon could be shown with, before its bytes are read.
    private struct Candidate {
        /// Its `data` is empty until the chosen one is read.
        var image: MediaImage
        var row: Int64?
        var file: URL?
        var dimensions: (width: Int, height: Int) { (image.width, image.height) }
    }

    /// The image of `taxonID` in `size` (nil: the largest): from the installed packs when any
    /// has one (the nearest in size of all their images of it; ties: pack id, then insertion
    /// order), else from the bundled photographs matched in `database`. A pack that cannot be
    /// read is logged and skipped, so one damaged pack never hides the others.
    public func image(for taxonID: Int64, size: ImageSize? = nil, in database: TaxonomyDatabase) async throws -> MediaImage? {
        var candidates = try await installedCandidates(taxonID)
        if candidates.isEmpty { candidates = try await bundledCandidates(taxonID, in: database) }
        let dimensions = candidates.map(\.dimensions)
        guard let chosen = (size.map { $0.choose(dimensions) } ?? ImageSize.largest(dimensions)).map({ candidates[$0] }) else { return nil }
        var image = chosen.image
        var bytes = Data()
        if let file = chosen.file {
            bytes = try await OffPool.run { try Data(contentsOf: file) }
        } else if let row = chosen.row {
            let queue = try connection(image.packId)
            bytes = try await queue.read { db in try Data.fetchOne(db, sql: "SELECT bytes FROM images WHERE id = ?", arguments: [row]) ?? Data() }
        }
        // Base64 inside the answer, not a path: the client may run in a sandbox that cannot
        // open the engine's files, and a path would reveal the user's directory layout.
        image.data = bytes.base64EncodedString()
        return image
    }

    /// Every installed pack's images of `taxonID`, without their bytes.
    private func installedCandidates(_ taxonID: Int64) async throws -> [Candidate] {
        var candidates: [Candidate] = []
        for id in installedIDs() {
            try Task.checkCancellation()
            guard let queue = try? connection(id) else { continue }
            do {
                candidates += try await queue.read { db -> [Candidate] in
                    try Row.fetchAll(db, sql: """
                        SELECT id, taxon_id, mime_type, width, height, credit, license FROM images
                        WHERE taxon_id = ? AND typeof(taxon_id) = 'integer' AND typeof(mime_type) = 'text' AND typeof(width) = 'integer'
                          AND typeof(height) = 'integer' AND typeof(credit) = 'text' AND typeof(license) = 'text' AND typeof(bytes) = 'blob'
                        ORDER BY id
                        """, arguments: [taxonID]).map { row in
                        Candidate(image: MediaImage(taxonId: row["taxon_id"], mimeType: row["mime_type"], width: row["width"], height: row["height"],
                                                    credit: row["credit"], license: row["license"], packId: id, data: ""),
                                  row: row["id"])
                    }
                }
            } catch where !Task.isCancelled {
                logger.warning("media pack \(id) cannot be read, skipped: \(error)")
            }
        }
        return candidates
    }

    /// The bundled photographs of `taxonID` in `database`, every size of each.
    private func bundledCandidates(_ taxonID: Int64, in database: TaxonomyDatabase) async throws -> [Candidate] {
        guard let (media, matches) = try await bundledMatches(in: database) else { return [] }
        return (matches.byTaxon[taxonID] ?? []).flatMap { match -> [Candidate] in
            let photo = media.photos[match.photo]
            return photo.renditions.map { file in
                Candidate(image: MediaImage(taxonId: taxonID, mimeType: file.mimeType, width: file.width, height: file.height,
                                            credit: photo.credit, license: photo.license, author: photo.author,
                                            source: photo.source, depicts: match.kind == .scientificName ? nil : photo.scientificName,
                                            packId: BundledMedia.packID, data: ""),
                          file: file.url)
            }
        }
    }

    /// Whether an import is running.
    public var importRunning: Bool { slot.isTaken }

    /// Stops the running import at its next chunk; false when none is running.
    public func cancelImport() -> Bool {
        slot.cancel()
    }

    /// Verifies, stages and installs a `.stolmedia`; a pack with the same id is replaced.
    public func importPack(from source: URL, report: @escaping StolFileImporter.Report) async throws(MediaError) -> MediaPack {
        guard let job = slot.take() else { throw .importFailure(.importAlreadyInProgress) }
        defer { slot.release() }
        let staged: StolFileImporter.Staged
        do { staged = try await importer.stageUncancelled(source, job: job, report: report) } catch { throw .importFailure(error) }
        defer {
            unlink(staged.stolCopy.path)
            unlink(staged.database.path)
        }
        report(0.92, ImportStep.installing.rawValue)
        let id = try await packID(of: staged.database)
        let destination = url(id)
        do { try OwnedPath.ensureDirectory(directory) } catch {
            throw .importFailure(.importFailed("\(error)"))
        }
        guard rename(staged.database.path, destination.path) == 0 else {
            throw .importFailure(.importFailed("cannot move the pack into place: \(String(cString: strerror(errno)))"))
        }
        open[id] = nil
        logger.info("imported media pack \(id), signed by \(Hex.encode(staged.signedBy))")
        report(1, ImportStep.done.rawValue)
        guard let pack = await packs().first(where: { $0.id == id }) else { throw .importFailure(.databaseCorrupt("the installed pack cannot be read")) }
        return pack
    }

    /// The id inside a staged pack, checked like a `media/deletePack` id since it names a file.
    private func packID(of database: URL) async throws(MediaError) -> String {
        let id: String?
        do {
            var config = Configuration()
            config.readonly = true
            let queue = try DatabaseQueue(path: TaxonomyDatabase.immutableURI(database), configuration: config)
            id = try await queue.read { db in try String.fetchOne(db, sql: "SELECT value FROM media_info WHERE key = 'id'") }
            try queue.close()
        } catch {
            throw .importFailure(.databaseCorrupt("\(error)"))
        }
        guard let id, MediaPackSchema.isValidPackID(id) else { throw .importFailure(.databaseCorrupt("the media pack's id is missing or not a valid id")) }
        guard !Self.bundledPackIDs.contains(id) else {
            throw .importFailure(.databaseCorrupt("the media pack's id \"\(id)\" is the bundled images' own; packs must use another"))
        }
        return id
    }

    /// Removes an installed pack; `id` must already be a valid pack id.
    public func delete(_ id: String) throws(MediaError) {
        if Self.bundledPackIDs.contains(id) { throw .packNotDeletable(id) }
        guard installedIDs().contains(id) else { throw .packNotFound(id) }
        open[id] = nil
        guard unlink(url(id).path) == 0 else { throw .deleteFailed(id: id, detail: String(cString: strerror(errno))) }
        logger.info("deleted media pack \(id)")
    }

}
