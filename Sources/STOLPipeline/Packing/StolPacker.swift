import CZlib
import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import STOLEngine

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
