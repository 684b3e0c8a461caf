/// How a method's requests order against the requests read before them.
///
/// Methods name the resources they read and write (`favorites`, `settings`, …). A request that
/// writes a resource waits for every earlier request that reads or writes it; a request that
/// reads one waits for the earlier writers. So a `favorites/contains` read behind a
/// `favorites/add` sees the add, while reads of different resources never wait for each other.
public struct MethodOrdering: Sendable, Hashable {
    /// Resources whose earlier writes this method must see.
    public var reads: Set<String>
    /// Resources this method changes.
    public var writes: Set<String>
    /// Waits for every request read before it, and makes the server refuse every request read
    /// after it (`shutdown`).
    public var closesIntake: Bool

    /// Reads some resources and writes others.
    public init(reads: Set<String> = [], writes: Set<String> = []) {
        self.init(reads: reads, writes: writes, closesIntake: false)
    }

    private init(reads: Set<String>, writes: Set<String>, closesIntake: Bool) {
        self.reads = reads
        self.writes = writes
        self.closesIntake = closesIntake
    }

    /// Runs at once, concurrently with everything else.
    public static let concurrent = MethodOrdering(reads: [], writes: [], closesIntake: false)

    /// Reads `resources`: waits only for earlier requests that write them.
    public static func reads(_ resources: String...) -> MethodOrdering {
        MethodOrdering(reads: Set(resources), writes: [], closesIntake: false)
    }

    /// Writes `resources`: runs after every earlier request that reads or writes them.
    public static func writes(_ resources: String...) -> MethodOrdering {
        MethodOrdering(reads: [], writes: Set(resources), closesIntake: false)
    }

    /// Answers after every earlier request; later requests are refused.
    public static let closingIntake = MethodOrdering(reads: [], writes: [], closesIntake: true)
}

/// The resources the engine's methods name in their ordering.
public enum OrderedResource {
    /// The favourites: every `favorites/*` method reads or writes them.
    public static let favorites = "favorites"
    /// Which taxonomy database is active: every switch writes it.
    public static let activeDatabase = "activeDatabase"
    /// The installed media packs.
    public static let mediaPacks = "mediaPacks"
    /// The diagnostics switch and files.
    public static let diagnostics = "diagnostics"
}
