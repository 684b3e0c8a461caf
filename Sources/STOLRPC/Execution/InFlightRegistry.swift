import STOLProtocol
import STOLSupport
/// The requests that are running, by serial and by id: what `$/cancelRequest` cancels, what
/// `shutdown` waits for and what `stop` cancels.
final class InFlightRegistry: Sendable {
    typealias Work = Task<[UInt8]?, Never>

    private struct Entry {
        var id: RequestID?
        var work: Work?
        var cancelRequested = false
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var serialsByID: [RequestID: Set<Int>] = [:]
    }

    private let state = Locked(State())

    /// Records a request about to start; its task is attached by `attach`.
    func add(serial: Int, id: RequestID?) {
        state.withLock { s in
            s.entries[serial] = Entry(id: id)
            if let id { s.serialsByID[id, default: []].insert(serial) }
        }
    }

    /// Attaches a request's task, cancelling it at once when a cancel already came for it.
    func attach(_ work: Work, serial: Int) {
        let cancel = state.withLock { s -> Bool in
            guard s.entries[serial] != nil else { return false }
            s.entries[serial]?.work = work
            return s.entries[serial]?.cancelRequested ?? false
        }
        if cancel { work.cancel() }
    }

    /// Forgets a request that has ended.
    func remove(serial: Int) {
        state.withLock { s in
            guard let entry = s.entries.removeValue(forKey: serial), let id = entry.id else { return }
            s.serialsByID[id]?.remove(serial)
            if s.serialsByID[id]?.isEmpty == true { s.serialsByID[id] = nil }
        }
    }

    /// Cancels every running request with `id`; returns how many there were.
    @discardableResult
    func cancel(id: RequestID) -> Int {
        let works: [Work] = state.withLock { s in
            let serials = s.serialsByID[id] ?? []
            for serial in serials { s.entries[serial]?.cancelRequested = true }
            return serials.compactMap { s.entries[$0]?.work }
        }
        for work in works { work.cancel() }
        return works.count
    }

    /// Cancels every running request; returns how many there were.
    @discardableResult
    func cancelAll() -> Int {
        let works: [Work] = state.withLock { s in
            for serial in s.entries.keys { s.entries[serial]?.cancelRequested = true }
            return s.entries.values.compactMap(\.work)
        }
        for work in works { work.cancel() }
        return works.count
    }

    /// The tasks of every running request, for `shutdown` to wait on.
    var running: [Work] {
        state.withLock { $0.entries.values.compactMap(\.work) }
    }
}
