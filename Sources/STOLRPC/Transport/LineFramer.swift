/// Splits a byte stream into LF-terminated lines, whatever the chunk boundaries.
///
/// CR before LF is dropped, blank lines are skipped, and a line longer than the cap is reported
/// once as `.oversized` while its bytes are discarded, so memory stays bounded.
public struct LineFramer: Sendable {
    public enum Event: Equatable, Sendable {
        case line([UInt8])
        /// A line of `size` bytes (at least) that exceeded the cap; it was skipped.
        case oversized(size: Int)
    }

    public let maxLineBytes: Int
    private var buffer: [UInt8] = []
    private var discarding = false
    private var discardedBytes = 0

    public init(maxLineBytes: Int) {
        precondition(maxLineBytes > 0)
        self.maxLineBytes = maxLineBytes
    }

    /// Feeds a chunk; returns the complete lines and errors it finished, in order.
    public mutating func push<C: Collection<UInt8>>(_ chunk: C) -> [Event] where C.Index == Int {
        var events: [Event] = []
        var start = chunk.startIndex
        while start < chunk.endIndex {
            guard let newline = chunk[start...].firstIndex(of: 0x0A) else {
                append(chunk[start..<chunk.endIndex])
                break
            }
            append(chunk[start..<newline])
            finishLine(into: &events)
            start = newline + 1
        }
        return events
    }

    /// Call at end of input: a last line without LF still counts.
    public mutating func finish() -> [Event] {
        var events: [Event] = []
        if discarding || !buffer.isEmpty { finishLine(into: &events) }
        return events
    }

    /// Bytes held for the line being assembled.
    public var bufferedBytes: Int { buffer.count }

    private mutating func append<S: Collection<UInt8>>(_ bytes: S) {
        if discarding {
            discardedBytes += bytes.count
            return
        }
        // Allow one extra byte for a CR that will be dropped (written so that a limit of
        // `Int.max`, no limit, cannot overflow).
        if buffer.count + bytes.count - 1 > maxLineBytes {
            discarding = true
            discardedBytes = buffer.count + bytes.count
            buffer = []
            return
        }
        buffer.append(contentsOf: bytes)
    }

    private mutating func finishLine(into events: inout [Event]) {
        if discarding {
            events.append(.oversized(size: discardedBytes))
            discarding = false
            discardedBytes = 0
            return
        }
        var line = buffer
        buffer = []
        buffer.reserveCapacity(256)
        if line.last == 0x0D { line.removeLast() }
        if line.count > maxLineBytes {
            events.append(.oversized(size: line.count))
            return
        }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        events.append(.line(line))
    }
}
