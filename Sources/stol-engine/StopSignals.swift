#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import STOLSupport

/// SIGTERM, SIGINT and SIGHUP as a request to stop gracefully rather than death on the spot.
///
/// The signals' default action is turned off and Dispatch sources report them on a queue of their
/// own, so nothing runs in signal-handler context. A signal that arrives before a handler is set
/// is remembered and handed to it when it is.
final class StopSignals: @unchecked Sendable {
    // Unchecked: `sources` is written once in `init` and only kept alive afterwards; the mutable
    // part is behind `Locked`.
    private let sources: [any DispatchSourceSignal]
    private let state = Locked<(received: String?, handler: (@Sendable (String) -> Void)?)>((nil, nil))

    static let names: [(signal: Int32, name: String)] = [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT"), (SIGHUP, "SIGHUP")]

    init() {
        let queue = DispatchQueue(label: "stol.signals")
        var sources: [any DispatchSourceSignal] = []
        let state = self.state
        for (number, name) in Self.names {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                let handler = state.withLock { s -> (@Sendable (String) -> Void)? in
                    if s.handler == nil, s.received == nil { s.received = name }
                    return s.handler
                }
                handler?(name)
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    /// Calls `handler` with the signal's name for each signal from now on, and at once for one
    /// that already arrived.
    func onSignal(_ handler: @escaping @Sendable (String) -> Void) {
        let early = state.withLock { s -> String? in
            s.handler = handler
            defer { s.received = nil }
            return s.received
        }
        if let early { handler(early) }
    }
}
