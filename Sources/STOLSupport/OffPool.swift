import Foundation

/// The one way the engine runs blocking work (file-system calls, long CPU-bound walks, the
/// index build) off the cooperative thread pool, so request handlers never block it.
public enum OffPool {
    private static let queue = DispatchQueue(label: "stol.blocking", qos: .userInitiated, attributes: .concurrent)

    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
