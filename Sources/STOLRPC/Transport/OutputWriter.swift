#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import STOLJSON

/// The one writer of the protocol stream: a FIFO queue drained by a dedicated thread that writes
/// each whole message with blocking writes.
///
/// Progress reports for the same token that are still waiting are coalesced (the newest wins), so a
/// slow reader sees fewer, fresher reports instead of an ever-growing backlog.
public final class OutputWriter: @unchecked Sendable {
    private final class Entry {
        var bytes: [UInt8]
        let coalesceKey: JSONValue?
        init(bytes: [UInt8], coalesceKey: JSONValue?) {
            self.bytes = bytes
            self.coalesceKey = coalesceKey
        }
    }

    private let fd: Int32
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var queue: [Entry] = []
    private var head = 0
    private var coalescible: [JSONValue: Entry] = [:]
    private var pending = 0
    /// Bytes of answers held elsewhere until they can be written (a batch waiting for its last part).
    private var reserved = 0
    private var writing = false
    private var broken = false
    private var closed = false
    private let onBrokenPipe: @Sendable () -> Void

    /// - Parameters:
    ///   - fd: where messages go (the protocol's private duplicate of the original stdout).
    ///   - onBrokenPipe: called once, on the writer thread, if the reader of `fd` goes away.
    public init(fd: Int32, onBrokenPipe: @escaping @Sendable () -> Void) {
        self.fd = fd
        self.onBrokenPipe = onBrokenPipe
        // The thread owns the writer until `close()`: it must outlive whoever queued the last message.
        let thread = Thread { [self] in self.run() }
        thread.name = "stol.rpc.writer"
        thread.start()
    }

    /// Queues one message (without its trailing newline, which the writer adds).
    public func send(_ message: [UInt8]) {
        enqueue(message, coalesceKey: nil)
    }

    /// Queues a progress report that may replace an earlier, still unwritten report for `token`.
    public func sendCoalescing(_ message: [UInt8], token: JSONValue) {
        enqueue(message, coalesceKey: token)
    }

    /// Bytes queued and not yet written.
    public var pendingBytes: Int {
        condition.lock()
        defer { condition.unlock() }
        return pending
    }

    /// Blocks the calling thread until fewer than `limit` bytes are waiting, counting reserved
    /// ones (or the pipe broke).
    public func waitUntilPending(below limit: Int) {
        condition.lock()
        while pending + reserved >= limit && !broken { condition.wait() }
        condition.unlock()
    }

    /// Counts `count` bytes of answers that are held until they can be sent as part of a larger
    /// message, so that `waitUntilPending` sees them; `release` them before sending.
    public func reserve(_ count: Int) {
        condition.lock()
        reserved += count
        condition.unlock()
    }

    /// Stops counting `count` reserved bytes.
    public func release(_ count: Int) {
        condition.lock()
        reserved -= count
        condition.broadcast()
        condition.unlock()
    }

    /// Writes what is queued, then stops the writer thread; later messages are dropped.
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until everything queued has been written (or cannot be).
    public func flush() {
        condition.lock()
        while (head < queue.count || writing) && !broken { condition.wait() }
        condition.unlock()
    }

    /// Like `flush`, but gives up after `timeout` (a client that stopped reading); returns whether
    /// everything was written.
    @discardableResult
    public func flush(timeout: Duration) -> Bool {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while (head < queue.count || writing) && !broken {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    private func enqueue(_ message: [UInt8], coalesceKey: JSONValue?) {
        var bytes = message
        bytes.append(0x0A)
        condition.lock()
        defer { condition.unlock() }
        if broken || closed { return }
        if let key = coalesceKey, let waiting = coalescible[key] {
            pending += bytes.count - waiting.bytes.count
            waiting.bytes = bytes
            return
        }
        let entry = Entry(bytes: bytes, coalesceKey: coalesceKey)
        if let key = coalesceKey { coalescible[key] = entry }
        queue.append(entry)
        pending += bytes.count
        condition.broadcast()
    }

    private func run() {
        while true {
            condition.lock()
            while head == queue.count && !closed { condition.wait() }
            if head == queue.count {
                condition.unlock()
                return
            }
            let entry = queue[head]
            head += 1
            if head > 1024, head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            if let key = entry.coalesceKey, coalescible[key] === entry { coalescible[key] = nil }
            let bytes = entry.bytes
            // The queue keeps written entries until it compacts: drop their bytes now, or up to
            // a thousand written answers stay in memory (4.4 MB a call for a 50,000-favourite list).
            entry.bytes = []
            writing = true
            condition.unlock()

            let ok = writeAll(bytes)

            condition.lock()
            writing = false
            pending -= bytes.count
            if !ok {
                broken = true
                queue.removeAll()
                head = 0
                pending = 0
            }
            condition.broadcast()
            condition.unlock()
            if !ok {
                onBrokenPipe()
                return
            }
        }
    }

    /// Writes every byte, retrying partial writes and EINTR.
    private func writeAll(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN {
                        // A non-blocking descriptor inherited from the parent: wait until writable.
                        var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&pfd, 1, -1)
                        continue
                    }
                    return false
                }
                offset += n
            }
            return true
        }
    }
}
