#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Reads raw bytes from a file descriptor on a dedicated thread and hands out framed lines.
///
/// Blocking `read(2)` happens on its own thread, never on the cooperative pool. Before each read
/// and each line the reader waits on `gate`, which lets the server pause intake while too much
/// output is pending.
public final class InputReader: Sendable {
    private let fd: Int32
    private let maxLineBytes: Int
    private let chunkSize: Int
    private let closesAtEnd: Bool

    /// A reader of `fd`; with `closesAtEnd` it closes `fd` once its thread is done with it (the
    /// one moment that is safe: closing a descriptor another thread reads is a race).
    public init(fd: Int32 = 0, maxLineBytes: Int, chunkSize: Int = 64 * 1024, closesAtEnd: Bool = false) {
        self.fd = fd
        self.maxLineBytes = maxLineBytes
        self.chunkSize = chunkSize
        self.closesAtEnd = closesAtEnd
    }

    /// Starts the thread. `onEvent` runs on that thread for each line, in order, with the number
    /// of the `read(2)` that completed it (1, 2, …: everything in it was written before that read
    /// returned); `onEnd` runs once at end of input or on a read error. `gate` is called before
    /// each read and each line, and may block.
    public func start(
        gate: @escaping @Sendable () -> Void,
        onEvent: @escaping @Sendable (LineFramer.Event, _ read: Int) -> Void,
        onEnd: @escaping @Sendable () -> Void
    ) {
        let fd = self.fd
        let maxLineBytes = self.maxLineBytes
        let chunkSize = self.chunkSize
        let closesAtEnd = self.closesAtEnd
        let thread = Thread {
            var framer = LineFramer(maxLineBytes: maxLineBytes)
            var chunk = [UInt8](repeating: 0, count: chunkSize)
            var reads = 0
            while true {
                gate()
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, chunkSize) }
                if count < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN {
                        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                        _ = poll(&pfd, 1, -1)
                        continue
                    }
                    break
                }
                if count == 0 { break }
                reads += 1
                // Gate every line, not only every read: one read can hold hundreds of requests.
                for event in framer.push(chunk[0..<count]) {
                    gate()
                    onEvent(event, reads)
                }
            }
            for event in framer.finish() { onEvent(event, reads) }
            if closesAtEnd { close(fd) }
            onEnd()
        }
        thread.name = "stol.rpc.reader"
        thread.stackSize = 8 << 20
        thread.start()
    }
}
