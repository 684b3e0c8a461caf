import Foundation

/// Reads another byte source on a thread of its own, a few chunks ahead of its consumer: a gzip
/// file inflates on one core while the importer parses it on another.
///
/// The source's errors reach the consumer after the bytes read before them, so a truncated or
/// oversized file fails where it did. Dropping the reader stops the thread at its next chunk.
final class ReadAheadSource: ByteSource {
    private let queue: BoundedQueue<[UInt8]>
    private var current: [UInt8] = []
    private var offset = 0

    /// Starts reading `source`, which from now on only the reading thread uses, in chunks of
    /// `chunkSize` bytes, holding at most `depth` of them unread.
    init(_ source: any ByteSource, chunkSize: Int = 1 << 18, depth: Int = 4) {
        let queue = BoundedQueue<[UInt8]>(capacity: depth)
        self.queue = queue
        let handed = UncheckedSendable(source)
        let thread = Thread {
            let source = handed.value
            do {
                while true {
                    let chunk = try [UInt8](unsafeUninitializedCapacity: chunkSize) { space, count in
                        count = try source.read(into: space)
                    }
                    if chunk.isEmpty { break }
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

    deinit { queue.close() }

    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
        while offset >= current.count {
            guard let next = try queue.take() else { return 0 }
            current = next
            offset = 0
        }
        let n = min(buffer.count, current.count - offset)
        current.withUnsafeBufferPointer { chunk in
            buffer.baseAddress!.update(from: chunk.baseAddress! + offset, count: n)
        }
        offset += n
        return n
    }
}
