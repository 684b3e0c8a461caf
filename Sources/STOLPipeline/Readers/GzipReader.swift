import CZlib
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import STOLEngine

/// Why reading a (possibly gzip-compressed) file failed.
public enum GzipError: Error, Sendable, Equatable, CustomStringConvertible {
    /// zlib rejected the data (bad header, bad block, CRC mismatch, trailing garbage).
    case corruptData(String)
    /// The file ended inside a gzip member.
    case truncatedInput
    /// The output would be larger than the reader's `maxOutputBytes` (a gzip bomb, or the wrong file).
    case outputLimitExceeded(limit: Int)
    /// open(2) or read(2) failed.
    case io(errno: Int32, path: String)

    public var description: String {
        switch self {
        case .corruptData(let message): "corrupt gzip data: \(message)"
        case .truncatedInput: "gzip data ends unexpectedly (truncated file)"
        case .outputLimitExceeded(let limit): "decompressed data exceeds the limit of \(limit) bytes"
        case .io(let code, let path): "\(path): \(String(cString: strerror(code))) (errno \(code))"
        }
    }
}

/// A producer of bytes in chunks, so that readers never need a whole file in memory.
public protocol ByteSource: AnyObject {
    /// Writes at most `buffer.count` bytes to the start of `buffer`; returns how many, 0 only at the end.
    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws -> Int
}

extension ByteSource {
    /// Appends at most `max` bytes to `buffer`; returns how many, 0 only at the end.
    public func read(into buffer: inout [UInt8], max: Int) throws -> Int {
        guard max > 0 else { return 0 }
        let chunk = try [UInt8](unsafeUninitializedCapacity: max) { space, count in
            count = try read(into: space)
        }
        buffer.append(contentsOf: chunk)
        return chunk.count
    }
}

/// Bytes already in memory (tests, small inputs).
public final class MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    private var position = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public convenience init(_ text: String) { self.init(Array(text.utf8)) }

    public func read(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let n = Swift.min(buffer.count, bytes.count - position)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBufferPointer { all in
            buffer.baseAddress!.update(from: all.baseAddress! + position, count: n)
        }
        position += n
        return n
    }
}

/// Streams a file, inflating it when it starts with the gzip magic bytes and passing it through
/// unchanged otherwise, so every importer accepts `.gz` and plain files alike.
///
/// Concatenated gzip members (as `cat a.gz b.gz` or `pigz` write) are read as one stream.
/// `maxOutputBytes` bounds the decompressed size, which is what stops a gzip bomb: the compressed
/// size says nothing about it.
public final class GzipReader: ByteSource {
    public let path: String
    public let maxOutputBytes: Int?
    /// Whether the file is gzip (else it is passed through).
    public private(set) var isCompressed = false
    /// Bytes handed out so far.
    public private(set) var bytesProduced = 0

    private let fd: Int32
    private let input: UnsafeMutablePointer<UInt8>
    private let inputCapacity: Int
    /// Passthrough only: unread bytes of the first chunk are `input[inputStart..<inputEnd]`.
    private var inputStart = 0
    private var inputEnd = 0
    private var stream: UnsafeMutablePointer<z_stream>?
    private var atEOF = false
    private var memberEnded = false
    private var finished = false

    /// Opens `url`. `chunkSize` is the size of each read(2) of the file.
    public init(url: URL, maxOutputBytes: Int? = nil, chunkSize: Int = 1 << 16) throws(GzipError) {
        path = url.path
        self.maxOutputBytes = maxOutputBytes
        inputCapacity = Swift.max(chunkSize, 2)
        var descriptor: Int32
        repeat { descriptor = open(url.path, O_RDONLY) } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { throw .io(errno: errno, path: url.path) }
        fd = descriptor
        input = .allocate(capacity: inputCapacity)

        // Sniff the magic bytes (a short read may deliver only one).
        while inputEnd < 2, !atEOF { try fill() }
        guard inputEnd >= 2, input[0] == 0x1f, input[1] == 0x8b else { return }
        isCompressed = true
        let strm = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        strm.initialize(to: z_stream())
        // windowBits 15 + 32: a 32 KiB window, with gzip (or zlib) header detection.
        let status = inflateInit2_(strm, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            strm.deallocate()
            throw .corruptData("inflateInit2 failed (\(status))")
        }
        strm.pointee.next_in = input
        strm.pointee.avail_in = UInt32(inputEnd)
        stream = strm
    }

    deinit {
        if let stream {
            inflateEnd(stream)
            stream.deallocate()
        }
        input.deallocate()
        _ = close(fd)
    }

    /// Writes at most `buffer.count` decompressed bytes to `buffer`; returns how many, 0 only at the end.
    public func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(GzipError) -> Int {
        if let cap = maxOutputBytes, bytesProduced > cap { throw .outputLimitExceeded(limit: cap) }
        guard let out = buffer.baseAddress, buffer.count > 0, !finished else { return 0 }
        // One byte past the cap is let through so that exceeding it is detected, not truncated.
        let limit = maxOutputBytes.map { Swift.min(buffer.count, $0 - bytesProduced + 1) } ?? buffer.count
        let produced: Int
        if let stream {
            produced = try inflate(stream, into: out, limit: limit)
        } else {
            produced = try passThrough(into: out, limit: limit)
        }
        bytesProduced += produced
        if let cap = maxOutputBytes, bytesProduced > cap { throw .outputLimitExceeded(limit: cap) }
        return produced
    }

    private func inflate(_ strm: UnsafeMutablePointer<z_stream>, into out: UnsafeMutablePointer<UInt8>, limit: Int) throws(GzipError) -> Int {
        var produced = 0
        while produced == 0 {
            if strm.pointee.avail_in == 0, !atEOF {
                inputEnd = 0
                try fill()
                strm.pointee.next_in = input
                strm.pointee.avail_in = UInt32(inputEnd)
            }
            if memberEnded {
                // Another gzip member follows, or the file is done.
                guard strm.pointee.avail_in > 0 else {
                    if atEOF { finished = true; return 0 }
                    continue
                }
                inflateReset(strm)
                memberEnded = false
            }
            strm.pointee.next_out = out
            strm.pointee.avail_out = UInt32(limit)
            let status = CZlib.inflate(strm, Z_NO_FLUSH)
            produced = limit - Int(strm.pointee.avail_out)
            switch status {
            case Z_STREAM_END:
                memberEnded = true
            case Z_OK:
                break
            case Z_BUF_ERROR:
                // No progress possible: either more input is needed or there is none.
                if strm.pointee.avail_in == 0, atEOF { throw .truncatedInput }
            default:
                let message = strm.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw .corruptData(message)
            }
        }
        return produced
    }

    private func passThrough(into out: UnsafeMutablePointer<UInt8>, limit: Int) throws(GzipError) -> Int {
        if inputStart < inputEnd {
            let n = Swift.min(limit, inputEnd - inputStart)
            out.update(from: input + inputStart, count: n)
            inputStart += n
            return n
        }
        guard !atEOF else { finished = true; return 0 }
        let n = Self.readRetrying(fd, out, limit)
        if n < 0 { throw .io(errno: errno, path: path) }
        if n == 0 { atEOF = true; finished = true }
        return n
    }

    /// Reads more of the file into `input` after `inputEnd`.
    private func fill() throws(GzipError) {
        let n = Self.readRetrying(fd, input + inputEnd, inputCapacity - inputEnd)
        if n < 0 { throw .io(errno: errno, path: path) }
        if n == 0 { atEOF = true }
        inputEnd += n
    }

    private static func readRetrying(_ fd: Int32, _ into: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
        while true {
            #if canImport(Glibc)
            let n = Glibc.read(fd, into, count)
            #elseif canImport(Musl)
            let n = Musl.read(fd, into, count)
            #else
            let n = Darwin.read(fd, into, count)
            #endif
            if n >= 0 || errno != EINTR { return n }
        }
    }
}

/// A line longer than `LineReader.maxLineBytes`: it was read past without being kept, and the
/// reader goes on with the next line.
public struct LineTooLong: Error, Sendable, Equatable, CustomStringConvertible {
    /// The 1-based number of the line.
    public var line: Int
    public var limit: Int

    public var description: String { "line \(line) is longer than \(limit) bytes" }
}

/// Splits a byte source into lines: LF or CRLF endings, a last line without an ending, and a
/// UTF-8 byte-order mark at the start dropped. Invalid UTF-8 is repaired with U+FFFD. A line
/// longer than `maxLineBytes` is never held whole: it is skipped and reported (`LineTooLong`).
public final class LineReader {
    /// The default longest line: 16 MiB.
    public static let defaultMaxLineBytes = 1 << 24

    private let source: any ByteSource
    private let chunkSize: Int
    /// The longest line returned; a longer one throws `LineTooLong` and is skipped.
    public let maxLineBytes: Int
    /// Unconsumed bytes are `storage[start..<end]`; `scanned` is where the search for LF resumes.
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var start = 0
    private var end = 0
    private var scanned = 0
    private var eof = false
    /// 1-based number of the line last returned.
    public private(set) var lineNumber = 0

    public init(_ source: any ByteSource, chunkSize: Int = 1 << 16, maxLineBytes: Int = LineReader.defaultMaxLineBytes) {
        self.source = source
        self.chunkSize = Swift.max(chunkSize, 1)
        self.maxLineBytes = Swift.max(maxLineBytes, 1)
        capacity = 2 * self.chunkSize
        storage = .allocate(capacity: capacity)
    }

    /// Reads `url`, gzip or plain; a gzip file is inflated on a thread of its own, ahead of the lines.
    public convenience init(url: URL, maxOutputBytes: Int? = nil) throws(GzipError) {
        let file = try GzipReader(url: url, maxOutputBytes: maxOutputBytes)
        self.init(file.isCompressed ? ReadAheadSource(file) : file)
    }

    deinit { storage.deallocate() }

    /// The next line as text, without its line ending; nil at the end.
    public func nextLine() throws -> String? {
        try withNextLine { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the next line's bytes (without the line ending), valid only during the
    /// call; nil at the end. Saves a copy per line on hot paths. Throws `LineTooLong`, having
    /// read past it, for a line over `maxLineBytes`.
    public func withNextLine<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) throws -> R? {
        while true {
            if scanned < end, let hit = memchr(storage + scanned, 0x0A, end - scanned) {
                let lf = UnsafeMutableRawPointer(storage).distance(to: hit)
                var lineEnd = lf
                if lineEnd > start, storage[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let from = lineStart()
                start = lf + 1
                scanned = start
                if lineEnd - from > maxLineBytes { throw LineTooLong(line: lineNumber, limit: maxLineBytes) }
                return try body(UnsafeBufferPointer(start: storage + from, count: Swift.max(0, lineEnd - from)))
            }
            scanned = end
            if eof {
                guard start < end else { return nil }
                var lineEnd = end
                if storage[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let from = lineStart()
                start = end
                scanned = end
                if lineEnd - from > maxLineBytes { throw LineTooLong(line: lineNumber, limit: maxLineBytes) }
                return try body(UnsafeBufferPointer(start: storage + from, count: Swift.max(0, lineEnd - from)))
            }
            // A line already past the limit (a CR may still end it) is read past, not held.
            if end - start > maxLineBytes + 1 {
                try skipRestOfLine()
                throw LineTooLong(line: lineNumber, limit: maxLineBytes)
            }
            try fill()
        }
    }

    /// Counts the current line and reads past its end without keeping it.
    private func skipRestOfLine() throws {
        lineNumber += 1
        while true {
            if scanned < end, let hit = memchr(storage + scanned, 0x0A, end - scanned) {
                start = UnsafeMutableRawPointer(storage).distance(to: hit) + 1
                scanned = start
                return
            }
            // Nothing of this line is kept: the storage is reused for the next chunk.
            start = 0
            end = 0
            scanned = 0
            if eof { return }
            try fill()
        }
    }

    /// Moves the unconsumed bytes to the front, grows the storage if a line is longer than it,
    /// and appends one chunk from the source.
    private func fill() throws {
        if start > 0 {
            if end > start { memmove(storage, storage + start, end - start) }
            end -= start
            scanned -= start
            start = 0
        }
        if capacity - end < chunkSize {
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: Swift.max(2 * capacity, end + chunkSize))
            grown.update(from: storage, count: end)
            storage.deallocate()
            storage = grown
            capacity = Swift.max(2 * capacity, end + chunkSize)
        }
        let n = try source.read(into: UnsafeMutableBufferPointer(start: storage + end, count: chunkSize))
        if n == 0 { eof = true } else { end += n }
    }

    /// Counts the line and skips a byte-order mark on the first.
    private func lineStart() -> Int {
        lineNumber += 1
        if lineNumber == 1, end - start >= 3, storage[start] == 0xEF, storage[start + 1] == 0xBB, storage[start + 2] == 0xBF {
            return start + 3
        }
        return start
    }
}
