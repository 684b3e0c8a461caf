import CZlib
import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `.stol` files: gzip the database while hashing the compressed bytes, then sign.
/// Streams in chunks; the database is never held in memory.
public enum StolPacker {
    public enum PackError: Error, CustomStringConvertible {
        case notATaxonomyDatabase(String)
        case io(String)
        case zlib(String)

        public var description: String {
            switch self {
            case .notATaxonomyDatabase(let detail): "not a taxonomy database: \(detail)"
            case .io(let detail): detail
            case .zlib(let detail): "zlib: \(detail)"
            }
        }
    }

    /// The `schema_version` stored in a taxonomy database.
    public static func schemaVersion(of database: URL) throws -> UInt32 {
        var config = Configuration()
        config.readonly = true
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA trusted_schema = OFF") }
        do {
            let queue = try DatabaseQueue(path: database.path, configuration: config)
            let version = try queue.read { db -> Int? in
                guard try db.tableExists("schema_version"), try db.tableExists("taxa") else { return nil }
                return try Int.fetchOne(db, sql: "SELECT version FROM schema_version")
            }
            guard let version, version >= 0, version <= Int(UInt32.max) else {
                throw PackError.notATaxonomyDatabase("\(database.path) has no schema_version")
            }
            return UInt32(version)
        } catch let error as PackError {
            throw error
        } catch {
            throw PackError.notATaxonomyDatabase("\(database.path): \(error)")
        }
    }

    /// Packs `database` into `output` (written beside it, then renamed into place).
    @discardableResult
    public static func pack(database: URL, secretKey: [UInt8], schemaVersion: UInt32, to output: URL, level: Int32 = 6,
                            kind: StolFormat.Kind = .database) throws -> StolFormat.Header {
        let input = try RawFile(reading: database)
        let temp = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).\(UUID().uuidString).tmp")
        let out = try RawFile(creating: temp)
        var keep = false
        defer { if !keep { unlink(temp.path) } }
        try out.write(Array(repeating: 0, count: StolFormat.headerSize))

        var hasher = SHA256Hasher()
        let strm = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        strm.initialize(to: z_stream())
        defer { strm.deallocate() }
        // windowBits 31: a 32 KiB window with a gzip header and trailer.
        guard deflateInit2_(strm, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw PackError.zlib("deflateInit2 failed")
        }
        defer { deflateEnd(strm) }
        let chunk = 1 << 20
        var inBuffer = [UInt8](repeating: 0, count: chunk)
        var outBuffer = [UInt8](repeating: 0, count: chunk)
        var finished = false
        while !finished {
            let n = try input.read(into: &inBuffer)
            let flush = n == 0 ? Z_FINISH : Z_NO_FLUSH
            try inBuffer.withUnsafeMutableBufferPointer { inPtr in
                strm.pointee.next_in = inPtr.baseAddress
                strm.pointee.avail_in = UInt32(n)
                repeat {
                    let status: Int32 = outBuffer.withUnsafeMutableBufferPointer { outPtr in
                        strm.pointee.next_out = outPtr.baseAddress
                        strm.pointee.avail_out = UInt32(chunk)
                        return deflate(strm, flush)
                    }
                    guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                        throw PackError.zlib("deflate failed (\(status))")
                    }
                    let produced = chunk - Int(strm.pointee.avail_out)
                    if produced > 0 {
                        let slice = Array(outBuffer[0..<produced])
                        hasher.update(slice)
                        try out.write(slice)
                    }
                    if status == Z_STREAM_END { finished = true }
                } while strm.pointee.avail_out == 0 && !finished
            }
        }
        let digest = hasher.finalize()
        let signature = Signing.sign(kind.signedMessage(sha256: digest, schemaVersion: schemaVersion), secretKey: secretKey)
        let header = StolFormat.Header(schemaVersion: schemaVersion, payloadSHA256: digest, signature: signature, kind: kind)
        try out.write(header.bytes, at: 0)
        try out.sync()
        guard rename(temp.path, output.path) == 0 else { throw PackError.io("cannot write \(output.path): \(String(cString: strerror(errno)))") }
        keep = true
        return header
    }
}

/// A file descriptor with EINTR-safe whole reads and writes.
final class RawFile {
    let fd: Int32
    let path: String

    init(reading url: URL) throws {
        path = url.path
        var d: Int32
        // O_NONBLOCK so that opening a FIFO nobody writes to cannot hang the import forever (the
        // caller then refuses it as not a regular file); reads block as usual once it is cleared.
        repeat { d = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) } while d < 0 && errno == EINTR
        guard d >= 0 else { throw StolPacker.PackError.io("cannot open \(url.path): \(String(cString: strerror(errno)))") }
        let flags = fcntl(d, F_GETFL)
        if flags >= 0 { _ = fcntl(d, F_SETFL, flags & ~O_NONBLOCK) }
        fd = d
    }

    init(creating url: URL) throws {
        path = url.path
        var d: Int32
        repeat { d = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) } while d < 0 && errno == EINTR
        guard d >= 0 else { throw StolPacker.PackError.io("cannot create \(url.path): \(String(cString: strerror(errno)))") }
        fd = d
    }

    deinit { close(fd) }

    /// Regular-file size, or nil for anything else (directories, devices, pipes).
    func regularFileSize() -> Int64? {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// Fills `buffer` (its first `limit` bytes) as far as the file allows; returns how many
    /// bytes, 0 at the end.
    func read(into buffer: inout [UInt8], upTo limit: Int? = nil) throws -> Int {
        let capacity = min(limit ?? buffer.count, buffer.count)
        return try buffer.withUnsafeMutableBytes { raw -> Int in
            var total = 0
            while total < capacity {
                let n = sysRead(fd, raw.baseAddress! + total, capacity - total)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw StolPacker.PackError.io("cannot read \(path): \(String(cString: strerror(errno)))")
                }
                if n == 0 { break }
                total += n
            }
            return total
        }
    }

    func seek(to offset: Int64) throws {
        guard lseek(fd, off_t(offset), SEEK_SET) >= 0 else { throw StolPacker.PackError.io("cannot seek \(path)") }
    }

    func write(_ bytes: [UInt8], at offset: Int64? = nil) throws {
        try bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = offset.map { pwrite(fd, raw.baseAddress! + done, raw.count - done, off_t($0) + off_t(done)) }
                    ?? sysWrite(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw StolPacker.PackError.io("cannot write \(path): \(String(cString: strerror(errno)))")
                }
                done += n
            }
        }
    }

    func sync() throws {
        guard fsync(fd) == 0 else { throw StolPacker.PackError.io("cannot sync \(path): \(String(cString: strerror(errno)))") }
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
