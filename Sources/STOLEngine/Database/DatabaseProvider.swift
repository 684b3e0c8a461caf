import Foundation
import STOLRPC

/// Owns the open taxonomy databases and says which one is active.
///
/// Requests take the active database once, at their start, and keep that reference: a switch
/// never closes a connection under a request in flight (the old database closes when its last
/// request lets go of it). Before answering `current()` it runs the engine's check that no
/// other engine on the data directory switched or deleted the database meanwhile.
public actor DatabaseProvider {
    /// The bundled database: always present, never written.
    public let bundled: TaxonomyDatabase
    private var active: TaxonomyDatabase
    private nonisolated let beforeServing = Locked<(@Sendable () async -> Void)?>(nil)

    public init(bundled: TaxonomyDatabase, active: TaxonomyDatabase? = nil) {
        self.bundled = bundled
        self.active = active ?? bundled
    }

    /// The database requests should read now, once `beforeServing`'s check has caught up with
    /// the data directory.
    public func current() async -> TaxonomyDatabase {
        if let check = beforeServing.withLock({ $0 }) { await check() }
        return active
    }

    /// The active database without the check: for the code that switches it.
    func activeNow() -> TaxonomyDatabase { active }

    /// Sets the check `current()` runs first (the engine's catch-up with other engines).
    public nonisolated func setBeforeServing(_ check: @escaping @Sendable () async -> Void) {
        beforeServing.withLock { $0 = check }
    }

    /// Makes `database` the active one; returns the one it replaced.
    @discardableResult
    public func activate(_ database: TaxonomyDatabase) -> TaxonomyDatabase {
        defer { active = database }
        return active
    }

    /// Makes the bundled database active again.
    public func activateBundled() { active = bundled }
}
