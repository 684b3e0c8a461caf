import Foundation
import GRDB
import GRDBSQLite
import Logging
import STOLProtocol
import STOLSupport

/// The in-memory tree of one database: `TreeIndex` + `LCAIndex` with nodes numbered in preorder,
/// and the maps between nodes and taxon ids. Immutable apart from `cache` (rows already read);
/// requests hold it for as long as they need.
public final class LCASnapshot: Sendable {
    public let tree: TreeIndex
    public let index: LCAIndex
    /// Taxon id of each node.
    public let ids: [Int64]
    /// Nodes sorted by taxon id: the id → node map. A sorted array costs 4 bytes a node where a
    /// dictionary costs about 40 (see `stol-engine benchmark lca`).
    private let byID: [Int32]
    /// One bit per node: is it a species.
    private let speciesBits: [UInt64]
    public let source: LCATreeSource
    public let buildSeconds: Double
    /// Taxa and disambiguations read for inner nodes, so that each is read once.
    public let cache = TreeRowCache()

    init(tree: TreeIndex, ids: [Int64], byID: [Int32], speciesBits: [UInt64], source: LCATreeSource, buildSeconds: Double) {
        self.tree = tree
        self.index = LCAIndex(tree: tree)
        self.ids = ids
        self.byID = byID
        self.speciesBits = speciesBits
        self.source = source
        self.buildSeconds = buildSeconds
    }

    public var count: Int { ids.count }

    /// Bytes held by the tree, the LCA index and the maps.
    public var bytes: Int { tree.memoryBytes + index.memoryBytes + ids.count * 8 + byID.count * 4 + speciesBits.count * 8 }

    /// The node of taxon `id`, by binary search.
    public func node(for id: Int64) -> Int32? { Self.lookup(id, ids: ids, byID: byID) }

    static func lookup(_ id: Int64, ids: [Int64], byID: [Int32]) -> Int32? {
        var lo = 0, hi = byID.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if ids[Int(byID[mid])] < id { lo = mid + 1 } else { hi = mid }
        }
        guard lo < byID.count, ids[Int(byID[lo])] == id else { return nil }
        return byID[lo]
    }

    public func id(of node: Int32) -> Int64 { ids[Int(node)] }

    /// Whether `node` has children.
    public func isInner(_ node: Int32) -> Bool {
        tree.childStart[Int(node) + 1] > tree.childStart[Int(node)]
    }

    public func isSpecies(_ node: Int32) -> Bool {
        speciesBits[Int(node) >> 6] & (1 << UInt64(Int(node) & 63)) != 0
    }

    /// Nodes from `node` up to and including `ancestor` (which must be an ancestor or `node`).
    public func path(from node: Int32, upTo ancestor: Int32) -> [Int32] {
        var out = [node]
        var current = node
        while current != ancestor, current >= 0 {
            current = tree.parent[Int(current)]
            out.append(current)
        }
        return out
    }
}

/// Builds the in-memory tree of a database, from its Euler tour when it has one, else from `taxa`.
public enum LCASnapshotLoader {
    public enum Failure: Error, Sendable, CustomStringConvertible {
        case badTree(String)
        public var description: String {
            switch self {
            case .badTree(let detail): "cannot build the tree: \(detail)"
            }
        }
    }

    /// Reads and builds; `preferTour: false` ignores the Euler tour (tests compare both ways).
    public static func load(_ database: TaxonomyDatabase, preferTour: Bool = true) async throws -> LCASnapshot {
        let started = ContinuousClock.now
        if preferTour, let fromTour = try await readTour(database) {
            try Task.checkCancellation()
            // A tour that is not the tree of `taxa.parent_id` (import refuses one; an older engine's
            // import did not) is left for `taxa`, so that lineages from the tree and from SQL agree.
            if let built = try await OffPool.run({ try build(fromTour, source: .eulerTour, started: started) }) { return built }
        }
        let rows = try await readTaxa(database)
        try Task.checkCancellation()
        return try await OffPool.run { try build(rows, started: started) }
    }

    /// Nodes in preorder with parents, as read from the tour.
    struct TourRows: Sendable {
        var ids: [Int64]
        var parent: [Int32]
        var species: [Int64]
        /// `taxa`'s ids and parent ids (-1 for a root), in id order, to hold the tour to.
        var taxaIDs: [Int64]
        var taxaParents: [Int64]
    }

    /// Nodes in id order, and every id again in sibling (name) order.
    struct TaxaRows: Sendable {
        var ids: [Int64]
        var parentIDs: [Int64]
        var species: [UInt64]
        var nameOrder: [Int64]
    }

    /// Derives preorder and parents from the tour: a node's first occurrence is where the tour
    /// steps one level down (or starts a new root), and its parent is the node on the path one level
    /// up. Returns nil when the tables are absent or do not describe exactly the taxa.
    static func readTour(_ database: TaxonomyDatabase) async throws -> TourRows? {
        let expected = database.taxaCount
        return try await database.read { db -> TourRows? in
            guard try db.tableExists("euler_tour"), try db.tableExists("first_occurrence"),
                try Int.fetchOne(db, sql: "SELECT count(*) FROM first_occurrence") == expected, expected > 0
            else { return nil }
            var ids: [Int64] = []
            var parent: [Int32] = []
            ids.reserveCapacity(expected)
            parent.reserveCapacity(expected)
            var path: [Int32] = []
            var previousDepth: Int64 = -1
            var valid = true
            try scan(db, "SELECT taxon_id, depth, seq FROM euler_tour ORDER BY seq", rowids: [("euler_tour", 2)]) { row in
                guard valid else { return }
                let id = try row.taxonID(0, "euler_tour.taxon_id")
                let depth = try row.integer(1, "euler_tour.depth")
                // A depth the tour cannot have (deeper than the path so far, or negative) ends it below.
                guard depth <= Int64(path.count), depth >= 0 else { valid = false; return }
                if depth == previousDepth + 1 || (depth == 0 && previousDepth <= 0) {
                    // A first occurrence.
                    guard ids.count < expected else { valid = false; return }
                    let node = Int32(ids.count)
                    ids.append(id)
                    parent.append(depth == 0 ? -1 : path[Int(depth) - 1])
                    if path.count > Int(depth) { path[Int(depth)] = node } else { path.append(node) }
                } else if depth == previousDepth - 1, depth >= 0, ids[Int(path[Int(depth)])] == id {
                    // Back up to the parent.
                } else {
                    valid = false
                }
                previousDepth = depth
            }
            guard valid, ids.count == expected else { return nil }
            let species = try Int64.fetchAll(db, sql: "SELECT id FROM taxa WHERE rank = 'species'")
            var taxaIDs: [Int64] = [], taxaParents: [Int64] = []
            taxaIDs.reserveCapacity(expected)
            taxaParents.reserveCapacity(expected)
            try scan(db, "SELECT id, parent_id FROM taxa ORDER BY id", rowids: TaxonomyStore.taxaRowIDs) { row in
                taxaIDs.append(try row.taxonID(0, "taxa.id"))
                taxaParents.append(try row.taxonIDOrNull(1, "taxa.parent_id") ?? -1)
            }
            return TourRows(ids: ids, parent: parent, species: species, taxaIDs: taxaIDs, taxaParents: taxaParents)
        }
    }

    static func readTaxa(_ database: TaxonomyDatabase) async throws -> TaxaRows {
        let expected = database.taxaCount
        return try await database.read { db in
            var ids: [Int64] = [], parentIDs: [Int64] = [], nameOrder: [Int64] = []
            ids.reserveCapacity(expected)
            parentIDs.reserveCapacity(expected)
            nameOrder.reserveCapacity(expected)
            var species = [UInt64](repeating: 0, count: (expected + 63) / 64)
            try scan(db, "SELECT id, parent_id, rank IS 'species' FROM taxa ORDER BY id", rowids: TaxonomyStore.taxaRowIDs) { row in
                let i = ids.count
                ids.append(try row.taxonID(0, "taxa.id"))
                parentIDs.append(try row.taxonIDOrNull(1, "taxa.parent_id") ?? -1)
                if try row.integer(2, "taxa.rank") == 1 {
                    if i >> 6 >= species.count { species.append(0) }
                    species[i >> 6] |= 1 << UInt64(i & 63)
                }
            }
            // Siblings in name order, straight from the (parent_id, scientific_name) index.
            try scan(db, "SELECT id FROM taxa ORDER BY parent_id, scientific_name, id", rowids: TaxonomyStore.taxaRowIDs) { row in
                nameOrder.append(try row.taxonID(0, "taxa.id"))
            }
            return TaxaRows(ids: ids, parentIDs: parentIDs, species: species, nameOrder: nameOrder)
        }
    }

    /// Nil when the tour is not the tree of `taxa.parent_id` (`rows.taxaParents`).
    static func build(_ rows: TourRows, source: LCATreeSource, started: ContinuousClock.Instant) throws -> LCASnapshot? {
        let n = rows.ids.count
        // Nodes are already in preorder, siblings in tour order.
        let tree: TreeIndex
        do { tree = try TreeIndex(parent: rows.parent, order: <) } catch { throw Failure.badTree("\(error)") }
        var byID = (0..<Int32(n)).map { $0 }
        let ids = rows.ids
        if !zip(ids, ids.dropFirst()).allSatisfy({ $0 < $1 }) {
            byID.sort { ids[Int($0)] < ids[Int($1)] }
        }
        for i in 1..<max(n, 1) where ids[Int(byID[i - 1])] == ids[Int(byID[i])] {
            throw Failure.badTree("taxon \(ids[Int(byID[i])]) appears twice in the tour")
        }
        guard rows.taxaIDs.count == n else { return nil }
        for i in 0..<n {
            let node = Int(byID[i])
            let tourParent = rows.parent[node] >= 0 ? ids[Int(rows.parent[node])] : -1
            guard ids[node] == rows.taxaIDs[i], tourParent == rows.taxaParents[i] else { return nil }
        }
        var bits = [UInt64](repeating: 0, count: (n + 63) / 64)
        for id in rows.species {
            guard let node = LCASnapshot.lookup(id, ids: ids, byID: byID) else { continue }
            bits[Int(node) >> 6] |= 1 << UInt64(Int(node) & 63)
        }
        return LCASnapshot(tree: tree, ids: ids, byID: byID, speciesBits: bits, source: source, buildSeconds: seconds(since: started))
    }

    static func build(_ rows: TaxaRows, started: ContinuousClock.Instant) throws -> LCASnapshot {
        let n = rows.ids.count
        let ids = rows.ids
        func index(of id: Int64) -> Int32? { ids.position(ofSortedID: id) }
        // Nodes in id order first.
        var parent = [Int32](repeating: -1, count: n)
        for i in 0..<n where rows.parentIDs[i] >= 0 {
            guard let p = index(of: rows.parentIDs[i]) else { throw Failure.badTree("taxon \(ids[i]) has a missing parent") }
            parent[i] = p
        }
        var rank = [Int32](repeating: 0, count: n)
        for (position, id) in rows.nameOrder.enumerated() {
            if let node = index(of: id) { rank[Int(node)] = Int32(position) }
        }
        let byIDOrder: TreeIndex
        do { byIDOrder = try TreeIndex(parent: parent) { rank[Int($0)] < rank[Int($1)] } } catch { throw Failure.badTree("\(error)") }
        // Renumber in preorder, so that the LCA index needs no position maps.
        let preorder = byIDOrder.preorder()
        var newIndex = [Int32](repeating: 0, count: n)
        for (position, node) in preorder.enumerated() { newIndex[Int(node)] = Int32(position) }
        var renumberedParent = [Int32](repeating: -1, count: n)
        var preorderIDs = [Int64](repeating: 0, count: n)
        var bits = [UInt64](repeating: 0, count: (n + 63) / 64)
        for old in 0..<n {
            let new = Int(newIndex[old])
            let p = parent[old]
            renumberedParent[new] = p >= 0 ? newIndex[Int(p)] : -1
            preorderIDs[new] = ids[old]
            if rows.species[old >> 6] & (1 << UInt64(old & 63)) != 0 { bits[new >> 6] |= 1 << UInt64(new & 63) }
        }
        let tree: TreeIndex
        do { tree = try TreeIndex(parent: renumberedParent, order: <) } catch { throw Failure.badTree("\(error)") }
        // ids were read in id order, so the old numbering sorted by id is 0, 1, 2, …
        return LCASnapshot(tree: tree, ids: preorderIDs, byID: newIndex, speciesBits: bits, source: .taxa, buildSeconds: seconds(since: started))
    }

    /// Steps `sql`, handing each row to `row`: millions of rows without a GRDB `Row` each.
    static func scan(_ db: Database, _ sql: String, rowids: StoredRow.RowIDs, _ row: (StoredRow) throws -> Void) throws {
        let statement = try db.makeStatement(sql: sql)
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        while try db.nextRow(handle) { try row(StoredRow(handle, rowids: rowids)) }
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}

/// Keeps the in-memory tree of the active database: built in the background when the database
/// becomes active (or at the first compare request), dropped when another database takes over.
/// Until it is ready, and for databases above `maxNodes`, callers get nil and answer from SQL.
public actor LCAService {
    private final class Entry {
        weak var database: TaxonomyDatabase?
        var state: LCAIndexState
        var snapshot: LCASnapshot?
        var task: Task<Void, Never>?
        let nodes: Int
        let generation: Int

        init(database: TaxonomyDatabase, state: LCAIndexState, generation: Int) {
            self.database = database
            self.state = state
            self.nodes = database.taxaCount
            self.generation = generation
        }
    }

    private let provider: DatabaseProvider
    public let maxNodes: Int
    private let logger: Logger?
    private var entry: Entry?
    private var generation = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    public init(provider: DatabaseProvider, maxNodes: Int, logger: Logger? = nil) {
        self.provider = provider
        self.maxNodes = maxNodes
        self.logger = logger
    }

    /// Starts building `database`'s tree unless it is already built or building; whatever was
    /// kept for another database is dropped (requests holding it keep it alive until they finish).
    public func prepare(_ database: TaxonomyDatabase) {
        if let entry, entry.database === database { return }
        entry?.task?.cancel()
        generation += 1
        let fresh = Entry(database: database, state: database.taxaCount > maxNodes ? .disabled : .building, generation: generation)
        entry = fresh
        guard fresh.state == .building else {
            logger?.info("compare: \(database.taxaCount) taxa is above the in-memory limit of \(maxNodes); answering from SQL")
            resumeWaiters()
            return
        }
        let logger = self.logger
        let generation = self.generation
        fresh.task = Task.detached(priority: .utility) { [weak self] in
            let result: Result<LCASnapshot, any Error>
            do { result = .success(try await LCASnapshotLoader.load(database)) } catch { result = .failure(error) }
            if case .success(let s) = result {
                logger?.info("compare: in-memory tree of \(s.count) taxa from \(s.source.rawValue), \(s.bytes) bytes, built in \(String(format: "%.3f", s.buildSeconds)) s")
            } else if case .failure(let error) = result, !(error is CancellationError) {
                logger?.warning("compare: cannot build the in-memory tree (\(error)); answering from SQL")
            }
            await self?.finish(generation, result)
        }
    }

    private func finish(_ generation: Int, _ result: Result<LCASnapshot, any Error>) {
        guard let built = entry, built.generation == generation else { return }
        built.task = nil
        switch result {
        case .success(let snapshot):
            built.snapshot = snapshot
            built.state = .ready
        case .failure:
            built.state = .fallback
        }
        resumeWaiters()
    }

    private func resumeWaiters() {
        let pending = waiters
        waiters = []
        for waiter in pending { waiter.resume() }
    }

    /// The tree of `database` when it is ready, else nil (answer from SQL). A request still on a
    /// database that is no longer active never starts a build nor displaces the active one's tree.
    public func snapshot(for database: TaxonomyDatabase) async -> LCASnapshot? {
        await entry(for: database)?.snapshot
    }

    public func stats(for database: TaxonomyDatabase) async -> LCAStats {
        guard let e = await entry(for: database) else {
            return LCAStats(state: .fallback, nodes: database.taxaCount, bytes: 0, buildSeconds: nil, source: nil)
        }
        return LCAStats(state: e.state, nodes: e.snapshot?.count ?? e.nodes, bytes: e.snapshot?.bytes ?? 0, buildSeconds: e.snapshot?.buildSeconds, source: e.snapshot?.source)
    }

    /// Waits until `database`'s build has ended (ready, failed or disabled).
    public func waitUntilBuilt(_ database: TaxonomyDatabase) async {
        while let e = await entry(for: database), e.state == .building {
            await withCheckedContinuation { waiters.append($0) }
        }
    }

    private func entry(for database: TaxonomyDatabase) async -> Entry? {
        if let entry, entry.database === database { return entry }
        guard await provider.current() === database else { return nil }
        prepare(database)
        return entry
    }
}
