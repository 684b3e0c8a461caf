import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Engine extensions for a database file the engine must not write (`--database FILE` with only
/// the specification's tables): built once into `<data-dir>/Caches/extensions-<identity>.sqlite`,
/// keyed by the file's path and identity (device, inode, size, modification time), and attached to
/// every connection as `ext`. The database file itself is only ever opened read-only; a cache for
/// an earlier state of the same path is removed when the new one is in place.
public struct ExtensionCache: Sendable {
    /// `<data-dir>/Caches`.
    public let directory: URL
    /// Where a cache is built before it is renamed into place (same filesystem).
    public let scratch: ScratchDirectory
    /// Told before a build starts (it reads every name, so it can take a while on a big database).
    public var onBuild: @Sendable (String) -> Void = { _ in }

    public init(dataDirectory: URL, scratch: ScratchDirectory) {
        self.directory = dataDirectory.appendingPathComponent("Caches")
        self.scratch = scratch
    }

    /// The first 12 bytes of SHA-256 of `text`, in hex.
    static func digest(_ text: String) -> String {
        var hasher = SHA256Hasher()
        Array(text.utf8).withUnsafeBytes { hasher.update($0) }
        return Hex.encode(Array(hasher.finalize().prefix(12)))
    }

    /// `extensions-<path digest>-`: every cache of one path starts so.
    func prefix(for database: URL) -> String {
        "extensions-" + Self.digest(database.standardizedFileURL.path) + "-"
    }

    /// The cache file for `database`'s current identity and the extensions it holds (an engine
    /// that adds an extension builds a new cache); nil when the file cannot be stat'ed.
    public func url(for database: URL, extensions: [SchemaExtensions.Extension] = []) -> URL? {
        guard var identity = Self.identity(of: database) else { return nil }
        // Caches of the search index alone keep the name they had before other extensions were cached.
        let held = extensions.filter(\.cacheable).map(\.rawValue).filter { $0 != SchemaExtensions.Extension.datasetInfo.rawValue && $0 != SchemaExtensions.Extension.searchIndex.rawValue }
        if !held.isEmpty { identity += "-" + held.sorted().joined(separator: ",") }
        return directory.appendingPathComponent(prefix(for: database) + Self.digest(identity) + ".sqlite")
    }

    /// `database`'s device, inode, size and modification time (ns); nil when it cannot be stat'ed.
    static func identity(of database: URL) -> String? {
        var info = stat()
        guard stat(database.path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
        return "\(info.st_dev)-\(info.st_ino)-\(info.st_size)-\(modified)"
    }

    /// `<data-dir>/Caches/checked-<path>-<identity>-v<version>`: an empty file saying that
    /// `database`, as it is now, passed `TaxonomyContentCheck` (of that version) when `--database`
    /// opened it, so that a later start need not read it all again. Nil when it cannot be stat'ed.
    func contentCheckRecord(for database: URL) -> URL? {
        guard let identity = Self.identity(of: database) else { return nil }
        return directory.appendingPathComponent(
            "checked-" + Self.digest(database.standardizedFileURL.path) + "-" + Self.digest(identity) + "-v\(TaxonomyContentCheck.version)")
    }

    /// Records that `database` passed the content check (see `contentCheckRecord`), replacing the
    /// records of the same path's earlier states. Best effort: a failure only costs a check later.
    func recordContentChecked(_ database: URL) {
        guard let record = contentCheckRecord(for: database), (try? OwnedPath.ensureDirectory(directory)) != nil else { return }
        let samePath = "checked-" + Self.digest(database.standardizedFileURL.path) + "-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] where name.hasPrefix(samePath) {
            unlink(directory.appendingPathComponent(name).path)
        }
        let fd = open(record.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644)
        if fd >= 0 { close(fd) }
    }

    /// The cache holding `extensions` for `database`, built (from `database`, opened read-only)
    /// when it is not there yet.
    public func prepare(for database: URL, extensions: [SchemaExtensions.Extension]) throws -> URL {
        guard let target = url(for: database, extensions: extensions) else { throw DatabaseOpenError.unreadable(database.lastPathComponent) }
        if FileManager.default.fileExists(atPath: target.path) { return target }
        try OwnedPath.ensureDirectory(directory)
        onBuild("building the search extensions of \(database.lastPathComponent) into \(target.path)")
        let building = try scratch.url().appendingPathComponent("extensions-\(UUID().uuidString).sqlite")
        defer { unlink(building.path) }
        var config = Configuration()
        config.journalMode = .default
        let queue = try DatabaseQueue(path: building.path, configuration: config)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;")
            try db.execute(sql: "ATTACH DATABASE ? AS src", arguments: [TaxonomyDatabase.immutableURI(database)])
        }
        try queue.write { db in
            try SchemaExtensions.build(extensions.filter(\.cacheable), in: db, source: "src")
        }
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "DETACH DATABASE src")
            try db.execute(sql: "VACUUM")
        }
        try queue.close()
        guard rename(building.path, target.path) == 0 else {
            throw DatabaseOpenError.unreadable("cannot move the extension cache into \(directory.path): \(String(cString: strerror(errno)))")
        }
        // Caches of the same path's earlier states (unlink: a link put here is removed, not followed).
        let earlier = prefix(for: database)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        where name.hasPrefix(earlier) && name != target.lastPathComponent {
            unlink(directory.appendingPathComponent(name).path)
        }
        return target
    }
}
