import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the engine will not write somewhere in its data directory.
public enum DataDirectoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path is a symbolic link; the engine never writes or deletes through one.
    case symbolicLink(String)
    /// Something other than a directory is where the engine keeps one of its folders.
    case notADirectory(String)
    /// The folder cannot be created or written (permissions, full disk).
    case unwritable(String, String)

    public var description: String {
        switch self {
        case .symbolicLink(let path): "\(path) is a symbolic link; the engine does not write through links in its data directory"
        case .notADirectory(let path): "\(path) is not a directory"
        case let .unwritable(path, detail): "cannot write \(path): \(detail)"
        }
    }
}

/// Checks that make the engine write only to paths it made, never through a symbolic link.
enum OwnedPath {
    /// True when `url` is a directory itself, not a link to one.
    static func isRealDirectory(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// True when something (a link included, dangling or not) is at `url`.
    static func exists(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0
    }

    /// True when `url` is a symbolic link.
    static func isSymbolicLink(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// Makes `url` (and missing parents) as directories, or checks that it already is one and
    /// not a symbolic link.
    static func ensureDirectory(_ url: URL) throws(DataDirectoryError) {
        var info = stat()
        if lstat(url.path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR: return
            case S_IFLNK: throw .symbolicLink(url.path)
            default: throw .notADirectory(url.path)
            }
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .unwritable(url.path, "\(error.localizedDescription)")
        }
    }

    /// Throws when a file the engine is about to open for writing is a symbolic link.
    static func refuseSymbolicLink(_ url: URL) throws(DataDirectoryError) {
        if isSymbolicLink(url) { throw .symbolicLink(url.path) }
    }

    /// The data directory with every symbolic link in it resolved, once, at start (a folder that
    /// does not exist yet keeps the part that does not exist as given).
    static func resolved(_ url: URL) -> URL {
        var existing = url.standardizedFileURL
        var missing: [String] = []
        while !exists(existing), existing.path != "/" {
            missing.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        guard let real = realpath(existing.path, nil) else { return url.standardizedFileURL }
        defer { free(real) }
        var result = URL(fileURLWithPath: String(cString: real))
        for part in missing { result.appendPathComponent(part) }
        return result
    }
}
