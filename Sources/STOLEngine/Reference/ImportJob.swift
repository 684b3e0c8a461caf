import STOLSupport
import Synchronization

/// A cancel flag shared by the import's worker, `database/cancelImport` and `$/cancelRequest`.
public final class ImportJob: Sendable {
    private let flag = Atomic<Bool>(false)
    /// Interrupts a long single step (the integrity check) that has no chunks to check between.
    private let interrupt = Locked<(@Sendable () -> Void)?>(nil)
    public init() {}

    public func cancel() {
        flag.store(true, ordering: .relaxed)
        interrupt.withLock { $0 }?()
    }

    public var isCancelled: Bool { flag.load(ordering: .relaxed) }

    func whileInterruptible<T>(_ onCancel: @escaping @Sendable () -> Void, _ body: () throws -> T) rethrows -> T {
        interrupt.withLock { $0 = onCancel }
        defer { interrupt.withLock { $0 = nil } }
        if isCancelled { onCancel() }
        return try body()
    }
}
