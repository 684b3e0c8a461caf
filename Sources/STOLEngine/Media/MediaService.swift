import Foundation
import GRDB
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

/// Installed media packs in `<data-dir>/Media/<packId>.sqlite`, imported from signed `.stolmedia`
/// files through the same staged, verified path as reference databases.
public actor MediaService {
    public struct Pack: Encodable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var version: String
        public var bytes: Int64
        public var imageCount: Int
        /// Bundled packs (none ship today) are never deletable.
        public var deletable: Bool
    }

    public struct Image: Sendable {
        public var taxonID: Int64
        public var mimeType: String
        public var width: Int
        public var height: Int
        public var credit: String
        public var license: String
        public var bytes: Data
        public var packID: String
    }

    /// Ids of packs that ship with the app; `media/deletePack` refuses them.
    public static let bundledPackIDs: Set<String> = []

    public nonisolated let directory: URL
    public nonisolated let importer: StolFileImporter
    private let logger: Logger
    private var job: ImportJob?
    private var open: [String: DatabaseQueue] = [:]

    public init(dataDirectory: URL, scratch: ScratchDirectory, trustedKeys: [[UInt8]], limits: StolFileImporter.Limits, logger: Logger) {
        directory = dataDirectory.appendingPathComponent("Media")
        importer = StolFileImporter(scratch: scratch, trustedKeys: trustedKeys, limits: limits, kind: .media)
        self.logger = logger
    }

    nonisolated func url(_ id: String) -> URL { directory.appendingPathComponent("\(id).sqlite") }

    /// Installed pack ids, sorted. Blocking directory read; small.
    nonisolated func installedIDs() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".sqlite") }.map { String($0.dropLast(7)) }.filter(MediaPackSchema.isValidPackID).sorted()
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

    public func packs() async -> [Pack] {
        var result: [Pack] = []
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
            result.append(Pack(id: id, name: info["name"] ?? id, version: info["version"] ?? "", bytes: bytes, imageCount: count,
                               deletable: !Self.bundledPackIDs.contains(id)))
        }
        return result
    }

    /// The largest image of `taxonID` in any pack (ties: pack id, then insertion order). A pack
    /// that cannot be read is logged and skipped, so one damaged pack never hides the others.
    public func image(for taxonID: Int64) async throws -> Image? {
        var best: Image?
        for id in installedIDs() {
            try Task.checkCancellation()
            guard let queue = try? connection(id) else { continue }
            let found: Image?
            do {
                found = try await queue.read { db -> Image? in
                guard let row = try Row.fetchOne(db, sql: """
                    SELECT taxon_id, mime_type, width, height, credit, license, bytes FROM images
                    WHERE taxon_id = ? AND typeof(taxon_id) = 'integer' AND typeof(mime_type) = 'text' AND typeof(width) = 'integer'
                      AND typeof(height) = 'integer' AND typeof(credit) = 'text' AND typeof(license) = 'text' AND typeof(bytes) = 'blob'
                    ORDER BY width * height DESC, id LIMIT 1
                    """, arguments: [taxonID]) else { return nil }
                return Image(taxonID: row["taxon_id"], mimeType: row["mime_type"], width: row["width"], height: row["height"],
                             credit: row["credit"], license: row["license"], bytes: row["bytes"], packID: id)
                }
            } catch where !Task.isCancelled {
                logger.warning("media pack \(id) cannot be read, skipped: \(error)")
                continue
            }
            if let found, found.width * found.height > (best.map { $0.width * $0.height } ?? -1) { best = found }
        }
        return best
    }

    /// Whether an import is running.
    public var importRunning: Bool { job != nil }

    public func cancelImport() -> Bool {
        guard let job else { return false }
        job.cancel()
        return true
    }

    /// Verifies, stages and installs a `.stolmedia`; a pack with the same id is replaced.
    public func importPack(from source: URL, report: @escaping StolFileImporter.Report) async throws(MediaError) -> Pack {
        guard job == nil else { throw .importFailure(.importAlreadyInProgress) }
        let job = ImportJob()
        self.job = job
        defer { self.job = nil }
        if Task.isCancelled { throw .importFailure(.cancelled) }
        let result = await importer.stage(source, job: job, report: report)
        let staged: StolFileImporter.Staged
        do { staged = try result.get() } catch { throw .importFailure(error) }
        defer {
            unlink(staged.stolCopy.path)
            unlink(staged.database.path)
        }
        if job.isCancelled || Task.isCancelled { throw .importFailure(.cancelled) }
        report(0.92, "installing")
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
        report(1, "done")
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

    /// Bytes of every installed pack, for `storage/report`.
    public func totalBytes() async -> Int64 { await packs().reduce(0) { $0 + $1.bytes } }
}
