import Foundation

/// Reads another byte source on a thread of its own, a few chunks ahead of its consumer: a gzip
/// file inflates on one core while the importer parses it on another.
///
/// The source's errors reach the consumer after the bytes read before them, so a truncated or
/// oversized file fails where it did. Dropping the reader stops the thread at its next chunk.
final class ReadAheadSource: ByteSource {
    private let chunks: QueuedChunks

    /// Starts reading `source`, which from now on only the reading thread uses, in chunks of
    /// `chunkSize` bytes, holding at most `depth` of them unread.
    init(_ source: any ByteSource, chunkSize: Int = 1 << 18, depth: Int = 4) {
        let queue = BoundedQueue<Data>(capacity: depth)
        chunks = QueuedChunks(queue)
        let handed = UncheckedSendable(source)
        let thread = Thread {
            let source = handed.value
            do {
                while true {
                    var chunk = Data(count: chunkSize)
                    let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0.bindMemory(to: UInt8.self)) }
                    if n == 0 { break }
                    chunk.count = n
                    guard queue.put(chunk) else { return }
                }
                queue.finish(nil)
            } catch {
                queue.finish(error)
            }
        }
        thread.name = "read ahead"
        thread.start()
    }

    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
        try chunks.read(into: buffer)
    }
}
