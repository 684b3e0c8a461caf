import Foundation
import STOLSupport

/// Owns the open taxonomy databases and says which one is active.
///
/// Requests take the active database once, at their start, and keep that reference: a switch
/// never closes a connection under a request in flight (the old database closes when its last
/// request lets go of it). Before answering `current()` it runs the engine's check that no
/// other engine on the data directory switched or deleted the database meanwhile.
public actor DatabaseProvider {
    /// The bundled database: always present, never written.
    public let bundled: TaxonomyDatabase
    private var active: TaxonomyDatabase {
        didSet { activeMirror.withLock { $0 = active } }
    }
    /// `active`, readable without entering the actor.
    private nonisolated let activeMirror: Locked<TaxonomyDatabase>
    /// Held weakly: the engine owns the provider.
    private struct WeakCheck {
        weak var value: (any DataDirectoryFollower)?
    }

    private nonisolated let beforeServing = Locked(WeakCheck())

    public init(bundled: TaxonomyDatabase, active: TaxonomyDatabase? = nil) {
        self.bundled = bundled
        self.active = active ?? bundled
        self.activeMirror = Locked(active ?? bundled)
    }

    /// The active database, without waiting, when the data directory is as the engine last saw
    /// it; nil when a change another engine made must be caught up with first (then `current()`).
    /// For inline answers (`MethodTable.on(_:inline:_:)`): `moment` is a number that grows with
    /// the client's input (`InlineContext.inputRead`), and a look at the disk made at one moment
    /// serves every request of the same moment.
    public nonisolated func currentForInlineRead(checkedAfter moment: Int) -> TaxonomyDatabase? {
        if let follower = beforeServing.withLock({ $0.value }), !follower.isDataDirectoryUnchanged(checkedAfter: moment) { return nil }
        return activeMirror.withLock { $0 }
    }

    /// The database requests should read now, once the follower set by `setBeforeServing` has
    /// caught up with the data directory. The check runs outside the actor.
    public nonisolated func current() async -> TaxonomyDatabase {
        if let follower = beforeServing.withLock({ $0.value }) { await follower.catchUpWithDataDirectory() }
        return await activeUnchecked()
    }

    /// The active database without the check: for the code that switches it.
    func activeUnchecked() -> TaxonomyDatabase { active }

    /// Sets what `current()` asks to catch up first (the engine, held weakly).
    nonisolated func setBeforeServing(_ follower: any DataDirectoryFollower) {
        beforeServing.withLock { $0.value = follower }
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
