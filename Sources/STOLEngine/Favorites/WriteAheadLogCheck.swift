import Foundation

/// Reads a SQLite write-ahead log the way SQLite recovers it, to tell a log it would silently
/// cut short (losing committed changes) from one that a crash merely left with a torn tail.
///
/// SQLite replays frames while their salts match the header and their running checksum holds,
/// and ignores the rest without a word. The log counts as damaged when its header is invalid
/// while it holds frames, or when a whole frame of the current generation fails its checksum:
/// everything from there on would be dropped. A last frame cut short by a crash is not damage
/// (its transaction was never acknowledged).
struct WriteAheadLogCheck {
    /// Why the log is damaged, or nil when SQLite will replay everything it holds.
    static func damage(in bytes: [UInt8]) -> String? {
        guard !bytes.isEmpty else { return nil }
        guard bytes.count >= 32 else { return "the write-ahead log is shorter than its header (\(bytes.count) bytes)" }
        let magic = word(bytes, 0)
        guard magic == 0x377F_0682 || magic == 0x377F_0683 else { return "the write-ahead log has no valid header" }
        let bigEndian = magic & 1 == 1
        let pageSize = Int(word(bytes, 8))
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else {
            return "the write-ahead log's header names an impossible page size (\(pageSize))"
        }
        var sum = checksum(bytes, 0..<24, bigEndian: bigEndian, seed: (0, 0))
        guard sum == (word(bytes, 24), word(bytes, 28)) else {
            return bytes.count > 32 ? "the write-ahead log's header checksum is wrong, so every change in it would be lost" : nil
        }
        let salts = (word(bytes, 16), word(bytes, 20))
        let frameSize = 24 + pageSize
        var offset = 32
        var frame = 0
        while offset + frameSize <= bytes.count {
            let frameSalts = (word(bytes, offset + 8), word(bytes, offset + 12))
            // A frame of an earlier generation: SQLite stops here, and so did the last writer.
            guard frameSalts == salts else { return nil }
            sum = checksum(bytes, offset..<(offset + 8), bigEndian: bigEndian, seed: sum)
            sum = checksum(bytes, (offset + 24)..<(offset + frameSize), bigEndian: bigEndian, seed: sum)
            guard sum == (word(bytes, offset + 16), word(bytes, offset + 20)) else {
                return "frame \(frame) of the write-ahead log fails its checksum, so it and every later change would be lost"
            }
            offset += frameSize
            frame += 1
        }
        return nil
    }

    private static func word(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    /// SQLite's WAL checksum over `range` (a multiple of 8 bytes), continuing from `seed`.
    private static func checksum(_ bytes: [UInt8], _ range: Range<Int>, bigEndian: Bool, seed: (UInt32, UInt32)) -> (UInt32, UInt32) {
        var (s0, s1) = seed
        var i = range.lowerBound
        while i < range.upperBound {
            let x0 = bigEndian ? word(bytes, i) : word(bytes, i).byteSwapped
            let x1 = bigEndian ? word(bytes, i + 4) : word(bytes, i + 4).byteSwapped
            s0 = s0 &+ x0 &+ s1
            s1 = s1 &+ x1 &+ s0
            i += 8
        }
        return (s0, s1)
    }
}
