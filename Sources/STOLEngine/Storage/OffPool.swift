import Foundation

/// Runs short blocking file-system work (stat, statvfs, small reads) on a dispatch queue, so
/// request handlers never block the cooperative thread pool.
enum OffPool {
    private static let queue = DispatchQueue(label: "stol.blocking", qos: .userInitiated, attributes: .concurrent)

    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
