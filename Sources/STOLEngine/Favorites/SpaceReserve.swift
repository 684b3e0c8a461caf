import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file of zeros that holds disk space for later, so that an operation that frees space
/// (removing favourites) can still run when the disk is full.
enum SpaceReserve {
    /// Writes `bytes` zeros to `url` (through a temporary name, so a full disk leaves no partial
    /// reserve) unless something is already there.
    static func ensure(_ url: URL, bytes: Int) {
        var info = stat()
        guard lstat(url.path, &info) != 0 else { return }
        let temp = url.deletingLastPathComponent().appendingPathComponent("\(url.lastPathComponent).new-\(UUID().uuidString)")
        let fd = open(temp.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let zeros = [UInt8](repeating: 0, count: 64 << 10)
        var written = 0
        while written < bytes {
            let n = zeros.withUnsafeBytes { write(fd, $0.baseAddress, min($0.count, bytes - written)) }
            guard n > 0 else { break }
            written += n
        }
        let synced = fsync(fd) == 0
        close(fd)
        if written >= bytes, synced, rename(temp.path, url.path) == 0 { return }
        unlink(temp.path)
    }
}
