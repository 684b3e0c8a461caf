import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file a path names and which version of it: device, inode, size and modification time.
/// Files the engine replaces are renamed into place, so a new file is a new identity; comparing
/// two identities is the cheap way to notice that another process changed or removed one.
struct FileIdentity: Sendable, Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int64
    var modifiedNanoseconds: Int64

    /// The identity of what `url` names now, without following a link; nil when nothing is there.
    static func of(_ url: URL) -> FileIdentity? {
        of(path: url.path)
    }

    /// The identity of what `path` names now, without following a link; nil when nothing is there.
    static func of(path: String) -> FileIdentity? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        return FileIdentity(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modifiedSeconds: Int64(modified.tv_sec), modifiedNanoseconds: Int64(modified.tv_nsec))
    }
}
