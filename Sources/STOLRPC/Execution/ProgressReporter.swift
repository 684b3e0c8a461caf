import STOLJSON
import STOLProtocol
import STOLSupport

/// Sends `$/progress` notifications for one request that asked for them with a progress token.
///
/// The fraction never goes backwards, and once the request has been answered the reporter is
/// closed, so no progress can follow the response.
public final class ProgressReporter: Sendable {
    /// How progress is written on the wire.
    public enum Notation: Sendable {
        /// `$/progress {token, value: {kind: begin|report|end, title, message, fraction, percentage}}`.
        case dollarProgress
        /// MCP's `notifications/progress {progressToken, progress, total: 1, message}`.
        case mcp
    }

    private struct State {
        var begun = false
        var ended = false
        var closed = false
        var fraction = 0.0
    }

    /// The client's token, echoed in every notification.
    public let token: JSONValue
    private let notation: Notation
    private let output: OutputWriter
    private let state = Locked(State())

    init(token: JSONValue, notation: Notation, output: OutputWriter) {
        self.token = token
        self.notation = notation
        self.output = output
    }

    /// Announces the start of the work.
    public func begin(title: String, message: String? = nil) {
        let send = state.withLock { s -> Bool in
            guard !s.closed, !s.begun else { return false }
            s.begun = true
            return true
        }
        guard send else { return }
        output.send(notification(WorkProgress(kind: .begin, title: title, message: message, percentage: 0), fraction: 0, message: message ?? title))
    }

    /// Reports how far the work has come; `fraction` is clamped to 0…1 and never decreases.
    public func report(fraction: Double, message: String? = nil) {
        let clamped: Double? = state.withLock { s in
            guard !s.closed, !s.ended else { return nil }
            s.fraction = max(s.fraction, min(1, max(0, fraction.isNaN ? 0 : fraction)))
            return s.fraction
        }
        guard let clamped else { return }
        let value = WorkProgress(kind: .report, message: message, fraction: Self.rounded(clamped), percentage: Int((clamped * 100).rounded(.down)))
        output.sendCoalescing(notification(value, fraction: clamped, message: message), token: token)
    }

    /// Announces the end of the work.
    public func end(message: String? = nil) {
        let send = state.withLock { s -> Bool in
            guard !s.closed, !s.ended else { return false }
            s.ended = true
            return true
        }
        guard send else { return }
        output.send(notification(WorkProgress(kind: .end, message: message), fraction: 1, message: message))
    }

    /// The fraction last reported.
    public var fraction: Double { state.withLock { $0.fraction } }

    /// Stops all further notifications; called just before the response is queued.
    func close() {
        state.withLock { $0.closed = true }
    }

    /// The notification in this reporter's notation: `$/progress` with `value`, or MCP's with
    /// the fraction and message.
    private func notification(_ value: WorkProgress, fraction: Double, message: String?) -> [UInt8] {
        switch notation {
        case .dollarProgress:
            return Envelope.notification(ProgressNotification(token: token, value: value))
        case .mcp:
            var params: [(key: String, value: JSONValue)] = [("progressToken", token), ("progress", .number(JSONWriter.numberText(Self.rounded(fraction)))), ("total", 1)]
            if let message { params.append(("message", .string(message))) }
            return Envelope.notification(method: "notifications/progress", params: .object(params))
        }
    }

    /// A fraction with at most four decimals, rounded down (reports need no more).
    private static func rounded(_ fraction: Double) -> Double {
        (fraction * 10_000).rounded(.down) / 10_000
    }
}
