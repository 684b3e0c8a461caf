#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import STOLClient
import STOLProtocol

/// The floor STOLClient is measured against: a hand-written loop on an engine's pipes that writes
/// each request line with one `write` and counts answers by their newlines, parsing nothing.
struct RawLineLoop {
    let channel: EngineChannel
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    /// Bytes after the last newline read so far.
    private var pending = 0
    private var nextID = 1

    init(_ channel: EngineChannel) {
        self.channel = channel
    }

    mutating func roundTrips(_ ids: [TaxonID], count: Int) throws -> [Double] {
        for id in ids.prefix(200) { try roundTrip(id) }
        let clock = ContinuousClock()
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for i in 0..<count {
            let start = clock.now
            try roundTrip(ids[i % ids.count])
            samples.append(ClientBenchmark.milliseconds(clock.now - start))
        }
        return samples
    }

    /// Requests per second of `count` requests written by a thread while the answers are read.
    mutating func pipelined(_ ids: [TaxonID], count: Int) throws -> Double {
        let first = nextID
        nextID += count
        let lines = (0..<count).map { Self.line(id: first + $0, taxon: ids[$0 % ids.count]) }
        let input = channel.input
        let clock = ContinuousClock()
        let start = clock.now
        let writer = Thread {
            for line in lines { _ = line.withUnsafeBytes { Self.writeAll(input, $0) } }
        }
        writer.start()
        try readLines(count)
        return Double(count) / ClientBenchmark.seconds(clock.now - start)
    }

    /// Ends the engine (its stdin closed) and waits for it.
    func end() async {
        close(channel.input)
        _ = await channel.exit()
        channel.release()
    }

    private mutating func roundTrip(_ taxon: TaxonID) throws {
        let line = Self.line(id: nextID, taxon: taxon)
        nextID += 1
        guard line.withUnsafeBytes({ Self.writeAll(channel.input, $0) }) else { throw POSIXError(.EPIPE) }
        try readLines(1)
    }

    /// Reads until `count` more newlines have come.
    private mutating func readLines(_ count: Int) throws {
        var seen = 0
        while seen < count {
            let n = buffer.withUnsafeMutableBytes { read(channel.output, $0.baseAddress! + pending, $0.count - pending) }
            guard n > 0 else { throw POSIXError(.EPIPE) }
            let end = pending + n
            var lastNewline = -1
            for i in pending..<end where buffer[i] == 0x0A {
                seen += 1
                lastNewline = i
            }
            if lastNewline >= 0 {
                // Keep only the start of the next answer; a long one wraps the buffer whole.
                let rest = end - lastNewline - 1
                buffer.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: $0.baseAddress! + lastNewline + 1, byteCount: rest) }
                pending = rest
            } else {
                pending = end == buffer.count ? 0 : end
            }
        }
    }

    private static func line(id: Int, taxon: TaxonID) -> [UInt8] {
        Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"taxon/get","params":{"id":\#(taxon)}}"#.utf8) + [0x0A]
    }

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }
}
