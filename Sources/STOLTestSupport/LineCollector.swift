import Foundation
import STOLJSON
import STOLRPC
import STOLSupport

/// The tests' one pipe reader: collects the lines written to a descriptor (an engine's stdout,
/// a server's output) on a thread of its own, with STOLRPC's `InputReader`, for a test to take.
public final class LineCollector: Sendable {
    private struct State {
        var lines: [[UInt8]] = []
        var raw: [UInt8] = []
        var ended = false
    }

    private let state = Locked(State())

    /// Starts reading `fd` until its end; `closesAtEnd` closes it then.
    public init(fd: Int32, closesAtEnd: Bool = false) {
        let state = self.state
        InputReader(fd: fd, maxLineBytes: Int.max, closesAtEnd: closesAtEnd).start(
            gate: {},
            onEvent: { event, _ in
                guard case .line(let bytes) = event else { return }
                state.withLock { $0.lines.append(bytes) }
            },
            onEnd: { state.withLock { $0.ended = true } })
    }

    /// Whether the writer closed its end and every line has been collected.
    public var ended: Bool { state.withLock { $0.ended } }

    /// The first line that parses and matches `matches`, removed; nil after `timeout`. The
    /// default is long: on a loaded machine other tests may hold the CPU for seconds, and nothing
    /// here is a speed check.
    public func next(timeout: Duration = .seconds(60), where matches: @Sendable (JSONValue) -> Bool = { _ in true }) async -> JSONValue? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let found: JSONValue? = state.withLock { s in
                for (i, line) in s.lines.enumerated() {
                    guard let value = try? JSONParser.parse(line), matches(value) else { continue }
                    s.lines.remove(at: i)
                    return value
                }
                return nil
            }
            if let found { return found }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return nil
    }

    /// Every line collected and not yet taken, as text.
    public var pendingLines: [String] { state.withLock { $0.lines.map { String(decoding: $0, as: UTF8.self) } } }

    /// Removes and returns every line collected so far, for tests that read thousands of answers.
    public func takeLines() -> [String] {
        state.withLock { s in
            defer { s.lines.removeAll(keepingCapacity: true) }
            return s.lines.map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Every message not yet taken, once the writer has closed its end: what a test reads after
    /// `exit` or `stop`, with no quiet period to guess.
    public func remaining() async -> [JSONValue] {
        while !ended { try? await Task.sleep(for: .milliseconds(2)) }
        return state.withLock { s in
            defer { s.lines.removeAll() }
            return s.lines.compactMap { try? JSONParser.parse($0) }
        }
    }
}
