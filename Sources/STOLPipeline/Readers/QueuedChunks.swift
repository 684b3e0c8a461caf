import Foundation

/// The consumer's side of a thread that produces bytes in chunks: a byte source that takes the
/// chunks from a bounded queue in order, and closes the queue when dropped so that its producer
/// stops at its next chunk (`ReadAheadSource`, `ZipEntrySource`).
final class QueuedChunks: ByteSource {
    private let queue: BoundedQueue<Data>
    private var current = Data()
    private var offset = 0

    /// Reads the chunks `queue` receives, and its producer's error after them.
    init(_ queue: BoundedQueue<Data>) { self.queue = queue }

    deinit { queue.close() }

    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
        while offset >= current.count {
            guard let next = try queue.take() else { return 0 }
            current = next
            offset = 0
        }
        let n = min(buffer.count, current.count - offset)
        let from = current.startIndex + offset
        current.copyBytes(to: buffer, from: from..<(from + n))
        offset += n
        return n
    }
}
