import Foundation

/// Owns the open taxonomy databases and says which one is active.
///
/// Requests take the active database once, at their start, and keep that reference: a switch
/// never closes a connection under a request in flight (the old database closes when its last
/// request lets go of it).
public actor DatabaseProvider {
    /// The bundled database: always present, never written.
    public let bundled: TaxonomyDatabase
    private var active: TaxonomyDatabase

    public init(bundled: TaxonomyDatabase, active: TaxonomyDatabase? = nil) {
        self.bundled = bundled
        self.active = active ?? bundled
    }

    /// The database requests should read now.
    public func current() -> TaxonomyDatabase { active }

    /// Makes `database` the active one; returns the one it replaced.
    @discardableResult
    public func activate(_ database: TaxonomyDatabase) -> TaxonomyDatabase {
        defer { active = database }
        return active
    }

    /// Makes the bundled database active again.
    public func activateBundled() { active = bundled }
}
