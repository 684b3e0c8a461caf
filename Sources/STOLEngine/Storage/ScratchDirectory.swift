import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import STOLSupport

/// The engine's own scratch folder for imports: `<parent>/.stol-tmp-XXXXXX`, made by `mkdtemp`
/// (so it is new, a real directory, mode 0700 and this process's own), created on first use and
/// removed by `remove()`. An exclusive `flock` on its `owner.lock` marks it as in use; a later
/// engine removes a folder whose lock it can take, and only the files it knows the names of.
public final class ScratchDirectory: Sendable {
    /// Where scratch folders are made (the data directory).
    public let parent: URL
    static let prefix = ".stol-tmp-"
    static let lockName = "owner.lock"

    private struct State {
        var url: URL?
        var lockFD: Int32 = -1
    }

    private let state = Locked(State())

    /// Nothing is created until `url()` is called.
    public init(in parent: URL) {
        self.parent = parent
    }

    /// The folder, creating it (and its lock) on first use.
    public func url() throws(DataDirectoryError) -> URL {
        let made = state.withLock { s -> Result<URL, DataDirectoryError> in
            if let url = s.url { return .success(url) }
            return Result { () throws(DataDirectoryError) -> URL in
                let (url, fd) = try Self.make(in: parent)
                s.url = url
                s.lockFD = fd
                return url
            }
        }
        return try made.get()
    }

    /// A new folder from `mkdtemp`, with its lock file created and locked.
    private static func make(in parent: URL) throws(DataDirectoryError) -> (URL, Int32) {
        try OwnedPath.ensureDirectory(parent)
        var template = Array(parent.appendingPathComponent(prefix + "XXXXXX").path.utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw .unwritable(parent.path, String(cString: strerror(errno))) }
        let url = URL(fileURLWithPath: String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        let fd = open(url.appendingPathComponent(lockName).path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0, flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let detail = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            rmdir(url.path)
            throw .unwritable(url.path, detail)
        }
        return (url, fd)
    }

    /// The folder if it was made, without making it.
    public var existingURL: URL? { state.withLock { $0.url } }

    /// Removes the engine's own files and the folder itself; the next `url()` makes a new one.
    public func remove() {
        state.withLock { s in
            guard let url = s.url else { return }
            Self.removeOwnFiles(in: url, keepingLock: true)
            unlink(url.appendingPathComponent(Self.lockName).path)
            if s.lockFD >= 0 { close(s.lockFD) }
            rmdir(url.path)
            s.url = nil
            s.lockFD = -1
        }
    }

    /// At start: removes the scratch folders of engines that are gone (their lock is free), and
    /// the import files an older engine left in `<parent>/tmp`. Never follows a symbolic link,
    /// never removes a file whose name the engine did not choose; returns what it removed.
    @discardableResult
    public static func removeAbandoned(in parent: URL) -> [String] {
        var removed: [String] = []
        for name in entries(of: parent) where name.hasPrefix(prefix) && name.count == prefix.count + 6 {
            let url = parent.appendingPathComponent(name)
            guard OwnedPath.isRealDirectory(url) else { continue }
            let fd = open(url.appendingPathComponent(lockName).path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
            if fd >= 0 {
                defer { close(fd) }
                // Held by a running engine: not ours to touch.
                guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
            } else if isRecent(url) {
                // Another engine may have just made it and not yet locked it.
                continue
            }
            removed += removeOwnFiles(in: url, keepingLock: false).map { "\(name)/\($0)" }
            if rmdir(url.path) == 0 { removed.append(name) }
        }
        // Engines before 2026-11 staged in `<data-dir>/tmp`. Only a `tmp` that holds nothing but
        // files with their names is theirs: then those files and the folder go. Any other `tmp`
        // (a home folder's own) is left exactly as it is.
        let legacy = parent.appendingPathComponent("tmp")
        let legacyNames = entries(of: legacy)
        if OwnedPath.isRealDirectory(legacy), !legacyNames.isEmpty, legacyNames.allSatisfy(isOwnFileName) {
            removed += removeOwnFiles(in: legacy, keepingLock: true).map { "tmp/\($0)" }
            if rmdir(legacy.path) == 0 { removed.append("tmp") }
        }
        return removed
    }

    /// Whether `name` is one the engine gives its temporary files: `import-<UUID>.stol`,
    /// `import-<UUID>.sqlite` or `backup-<UUID>.sqlite`, with SQLite's `-journal`, `-wal` or `-shm`.
    static func isOwnFileName(_ name: String) -> Bool {
        var rest = Substring(name)
        for suffix in ["-journal", "-wal", "-shm"] where rest.hasSuffix(suffix) {
            rest = rest.dropLast(suffix.count)
            break
        }
        let stem: Substring
        if rest.hasPrefix("import-"), rest.hasSuffix(".stol") {
            stem = rest.dropFirst("import-".count).dropLast(".stol".count)
        } else if rest.hasPrefix("import-"), rest.hasSuffix(".sqlite") {
            stem = rest.dropFirst("import-".count).dropLast(".sqlite".count)
        } else if rest.hasPrefix("backup-"), rest.hasSuffix(".sqlite") {
            stem = rest.dropFirst("backup-".count).dropLast(".sqlite".count)
        } else {
            return false
        }
        return UUID(uuidString: String(stem)) != nil
    }

    /// Unlinks the regular files with engine-chosen names in `directory` (and the lock unless
    /// kept), through a descriptor of the directory so no path component is followed twice.
    @discardableResult
    private static func removeOwnFiles(in directory: URL, keepingLock: Bool) -> [String] {
        let dirFD = open(directory.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard dirFD >= 0 else { return [] }
        defer { close(dirFD) }
        var removed: [String] = []
        for name in entries(of: directory) where isOwnFileName(name) || (!keepingLock && name == lockName) {
            var info = stat()
            guard fstatat(dirFD, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            if unlinkat(dirFD, name, 0) == 0 { removed.append(name) }
        }
        return removed
    }

    /// Modified within the last minute.
    private static func isRecent(_ url: URL) -> Bool {
        guard let modified = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date else { return false }
        return Date().timeIntervalSince(modified) < 60
    }

    private static func entries(of directory: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    }
}
