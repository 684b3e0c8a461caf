import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock across processes on `<data-dir>/.stol-lock` (`flock`), held while one
/// engine imports, switches or deletes the reference database, so engines sharing a data
/// directory take turns. The system releases it when its holder exits or is killed, so nothing
/// stale ever blocks the next engine.
final class DataDirectoryLock: Sendable {
    static let fileName = ".stol-lock"
    private let fd: Int32

    private init(fd: Int32) {
        self.fd = fd
    }

    /// The lock, or nil when another process holds it now (the caller does not wait).
    static func tryAcquire(in dataDirectory: URL) throws(DataDirectoryError) -> DataDirectoryLock? {
        try OwnedPath.ensureDirectory(dataDirectory)
        let path = dataDirectory.appendingPathComponent(fileName).path
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .unwritable(path, String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        return DataDirectoryLock(fd: fd)
    }

    deinit { close(fd) }
}
