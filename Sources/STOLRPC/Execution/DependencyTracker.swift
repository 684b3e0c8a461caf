import STOLProtocol
import STOLSupport
/// Works out what each request must wait for, from its method's `MethodOrdering`, and keeps
/// track of the requests later ones may have to wait for.
///
/// Requests are admitted one at a time in input order (by the intake thread), so the
/// dependencies recorded here follow arrival order. A request's entries are dropped when it ends.
final class DependencyTracker: Sendable {
    typealias Work = Task<[UInt8]?, Never>

    private struct Resource {
        var writer: (serial: Int, work: Work)?
        var readers: [Int: Work] = [:]
    }

    private struct State {
        var resources: [String: Resource] = [:]
        /// Requests that depend on or hold a resource, by serial, for `finished`.
        var holdings: [Int: Set<String>] = [:]
        /// Requests that ended before `started` recorded them.
        var endedEarly: Set<Int> = []
    }

    private let state = Locked(State())

    /// What a request of `ordering` must wait for; nil when it may run at once.
    func waits(for ordering: MethodOrdering) -> [Work] {
        if ordering.reads.isEmpty, ordering.writes.isEmpty { return [] }
        return state.withLock { s in
            var waits: [Work] = []
            for name in ordering.reads.subtracting(ordering.writes) {
                if let writer = s.resources[name]?.writer { waits.append(writer.work) }
            }
            for name in ordering.writes {
                guard let resource = s.resources[name] else { continue }
                if let writer = resource.writer { waits.append(writer.work) }
                waits.append(contentsOf: resource.readers.values)
            }
            return waits
        }
    }

    /// Records a started request, so that later ones wait for it as its ordering requires.
    func started(_ work: Work, serial: Int, ordering: MethodOrdering) {
        if ordering.reads.isEmpty, ordering.writes.isEmpty { return }
        state.withLock { s in
            if s.endedEarly.remove(serial) != nil { return }
            for name in ordering.writes {
                s.resources[name] = Resource(writer: (serial, work), readers: [:])
            }
            for name in ordering.reads.subtracting(ordering.writes) {
                s.resources[name, default: Resource()].readers[serial] = work
            }
            s.holdings[serial] = ordering.reads.union(ordering.writes)
        }
    }

    /// Forgets a request that has ended.
    func finished(serial: Int, ordering: MethodOrdering) {
        if ordering.reads.isEmpty, ordering.writes.isEmpty { return }
        state.withLock { s in
            guard let names = s.holdings.removeValue(forKey: serial) else {
                s.endedEarly.insert(serial)
                return
            }
            for name in names {
                guard var resource = s.resources[name] else { continue }
                if resource.writer?.serial == serial { resource.writer = nil }
                resource.readers[serial] = nil
                s.resources[name] = resource.writer == nil && resource.readers.isEmpty ? nil : resource
            }
        }
    }
}
