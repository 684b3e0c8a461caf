import Foundation
import STOLJSON
import STOLProtocol
import STOLSupport

/// The client's listeners, by notification method: they outlive any one engine, so a stream
/// taken before a restart keeps receiving from the new engine.
final class NotificationHub: Sendable {
    private typealias Listener = @Sendable (JSONValue?) -> Void

    private let listeners = Locked<[String: [UUID: Listener]]>([:])

    /// The notifications `N` from now on, decoded; one that does not decode is skipped.
    func stream<N: RPCNotification>(of type: N.Type) -> AsyncStream<N> {
        AsyncStream { continuation in
            let key = UUID()
            listeners.withLock {
                $0[N.method, default: [:]][key] = { params in
                    if let notification = try? JSONValueDecoder().decode(N.self, from: params ?? .object([])) { continuation.yield(notification) }
                }
            }
            continuation.onTermination = { [weak self] _ in
                self?.listeners.withLock { _ = $0[N.method]?.removeValue(forKey: key) }
            }
        }
    }

    /// Hands a notification to every listener of its method.
    func deliver(method: String, params: JSONValue?) {
        let targets = listeners.withLock { $0[method].map { Array($0.values) } ?? [] }
        for listener in targets { listener(params) }
    }
}
