/// `compare/stats`' answer: the state of the in-memory tree that answers compare and lineages.
public struct LCAStats: Codable, Hashable, Sendable {
    public var state: LCAIndexState
    public var nodes: Int
    public var bytes: Int
    public var buildSeconds: Double?
    public var source: LCATreeSource?

    public init(state: LCAIndexState, nodes: Int, bytes: Int, buildSeconds: Double?, source: LCATreeSource?) {
        self.state = state
        self.nodes = nodes
        self.bytes = bytes
        self.buildSeconds = buildSeconds
        self.source = source
    }
}

/// Where the in-memory tree of the active database stands.
public enum LCAIndexState: String, Codable, Hashable, Sendable {
    /// Being read; answers come from SQL meanwhile.
    case building
    case ready
    /// The database is above the engine's size limit (`--lca-max-nodes`): answers come from SQL.
    case disabled
    /// The tree could not be built, or the database is not the active one: answers come from SQL.
    case fallback
}

/// Where the in-memory tree was read from.
public enum LCATreeSource: String, Codable, Hashable, Sendable {
    case eulerTour = "euler_tour"
    case taxa
}
