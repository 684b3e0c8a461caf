import Foundation

/// A value behind a pthread mutex, for state shared between threads and tasks.
///
/// Used instead of `Synchronization.Mutex` because ThreadSanitizer sees pthread locking but not
/// Mutex's futex (the library is not built with it), and reports every access under a Mutex as
/// a race.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
