import STOLSupport
import STOLJSON

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
        var value: [(key: String, value: JSONValue)] = [("kind", "begin"), ("title", .string(title))]
        if let message { value.append(("message", .string(message))) }
        value.append(("percentage", 0))
        output.send(notification(value, fraction: 0, message: message ?? title))
    }

    /// Reports how far the work has come; `fraction` is clamped to 0…1 and never decreases.
    public func report(fraction: Double, message: String? = nil) {
        let clamped: Double? = state.withLock { s in
            guard !s.closed, !s.ended else { return nil }
            s.fraction = max(s.fraction, min(1, max(0, fraction.isNaN ? 0 : fraction)))
            return s.fraction
        }
        guard let clamped else { return }
        var value: [(key: String, value: JSONValue)] = [("kind", "report")]
        if let message { value.append(("message", .string(message))) }
        value.append(("fraction", .number(Self.format(clamped))))
        value.append(("percentage", .integer(Int((clamped * 100).rounded(.down)))))
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
        var value: [(key: String, value: JSONValue)] = [("kind", "end")]
        if let message { value.append(("message", .string(message))) }
        output.send(notification(value, fraction: 1, message: message))
    }

    /// The fraction last reported.
    public var fraction: Double { state.withLock { $0.fraction } }

    /// Stops all further notifications; called just before the response is queued.
    func close() {
        state.withLock { $0.closed = true }
    }

    /// The notification in this reporter's notation: `value` for `$/progress`, the fraction and
    /// message for MCP.
    private func notification(_ value: [(key: String, value: JSONValue)], fraction: Double, message: String?) -> [UInt8] {
        switch notation {
        case .dollarProgress:
            return Envelope.notification(method: "$/progress", params: .object([("token", token), ("value", .object(value))]))
        case .mcp:
            var params: [(key: String, value: JSONValue)] = [("progressToken", token), ("progress", .number(Self.format(fraction))), ("total", 1)]
            if let message { params.append(("message", .string(message))) }
            return Envelope.notification(method: "notifications/progress", params: .object(params))
        }
    }

    private static func format(_ fraction: Double) -> String {
        JSONWriter.numberText((fraction * 10_000).rounded(.down) / 10_000)
    }
}
