import STOLSupport

/// Lets one task at a time through, in arrival order; the others suspend (no thread blocks).
/// For sequences of steps that span suspension points inside an actor.
final class AsyncGate: Sendable {
    private struct State {
        var held = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Returns once the caller holds the gate; pair every call with `leave()`.
    func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { s -> Bool in
                guard s.held else {
                    s.held = true
                    return true
                }
                s.waiting.append(continuation)
                return false
            }
            if admitted { continuation.resume() }
        }
    }

    /// Hands the gate to the next waiting task, or opens it.
    func leave() {
        let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
            guard !s.waiting.isEmpty else {
                s.held = false
                return nil
            }
            return s.waiting.removeFirst()
        }
        next?.resume()
    }
}
