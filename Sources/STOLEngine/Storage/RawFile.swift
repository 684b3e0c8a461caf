#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A file descriptor with EINTR-safe whole reads and writes.
package final class RawFile {
    package let fd: Int32
    package let path: String

    package init(reading url: URL) throws {
        path = url.path
        var d: Int32
        // O_NONBLOCK so that opening a FIFO nobody writes to cannot hang the import forever (the
        // caller then refuses it as not a regular file); reads block as usual once it is cleared.
        repeat { d = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) } while d < 0 && errno == EINTR
        guard d >= 0 else { throw FileIOError("cannot open \(url.path): \(String(cString: strerror(errno)))") }
        let flags = fcntl(d, F_GETFL)
        if flags >= 0 { _ = fcntl(d, F_SETFL, flags & ~O_NONBLOCK) }
        fd = d
    }

    package init(creating url: URL) throws {
        path = url.path
        var d: Int32
        repeat { d = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) } while d < 0 && errno == EINTR
        guard d >= 0 else { throw FileIOError("cannot create \(url.path): \(String(cString: strerror(errno)))") }
        fd = d
    }

    deinit { close(fd) }

    /// Regular-file size, or nil for anything else (directories, devices, pipes).
    package func regularFileSize() -> Int64? {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// Fills `buffer` (its first `limit` bytes) as far as the file allows; returns how many
    /// bytes, 0 at the end.
    package func read(into buffer: inout [UInt8], upTo limit: Int? = nil) throws -> Int {
        let capacity = min(limit ?? buffer.count, buffer.count)
        return try buffer.withUnsafeMutableBytes { raw -> Int in
            var total = 0
            while total < capacity {
                let n = sysRead(fd, raw.baseAddress! + total, capacity - total)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw FileIOError("cannot read \(path): \(String(cString: strerror(errno)))")
                }
                if n == 0 { break }
                total += n
            }
            return total
        }
    }

    package func seek(to offset: Int64) throws {
        guard lseek(fd, off_t(offset), SEEK_SET) >= 0 else { throw FileIOError("cannot seek \(path)") }
    }

    package func write(_ bytes: [UInt8], at offset: Int64? = nil) throws {
        try bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = offset.map { pwrite(fd, raw.baseAddress! + done, raw.count - done, off_t($0) + off_t(done)) }
                    ?? sysWrite(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw FileIOError("cannot write \(path): \(String(cString: strerror(errno)))")
                }
                done += n
            }
        }
    }

    package func sync() throws {
        guard fsync(fd) == 0 else { throw FileIOError("cannot sync \(path): \(String(cString: strerror(errno)))") }
    }
}

/// A system call on a file failed; the text names the file and what the system said.
package struct FileIOError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}

private func sysRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(fd, buffer, count)
    #else
    Darwin.read(fd, buffer, count)
    #endif
}

private func sysWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
}
