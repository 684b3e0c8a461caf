import Foundation
import GRDB
import STOLProtocol
import STOLSupport

/// An open, read-only taxonomy database with a small pool of connections, so that a long query
/// never makes other reads wait.
///
/// Connections are opened `immutable` (SQLite takes no locks and never writes) with
/// `trusted_schema=OFF` and `query_only`, because a reference database is a file from outside.
public final class TaxonomyDatabase: Sendable {
    public let source: DatabaseSource
    public let url: URL
    public let schemaVersion: Int
    public let taxaCount: Int
    public let sizeBytes: Int64
    /// `dataset_info` as stored.
    public let datasetInfo: [String: String]
    /// Whether `taxa` stores `child_count`; databases built before it was added are counted per query.
    public let storesChildCounts: Bool
    /// The content extensions the file holds (`descriptions`, `nameSources`): without them there is
    /// nothing to read, and the queries that would read them are not run.
    public let contentExtensions: Set<SchemaExtensions.Extension>
    /// Whether the `searchRanking` extension is there (in the file or its cache): without it, as in
    /// a database imported before it existed, search takes heads by rule and every taxon's
    /// prominence as 0.
    public let hasSearchRanking: Bool
    private let readers: [DatabaseQueue]
    /// A connection of its own for `readInline`, so that reads on a caller's thread never queue
    /// behind the pool's.
    private let inlineReader: DatabaseQueue
    private let busy: Locked<[Int]>
    private let damageFound = Locked<DatabaseDamage?>(nil)
    /// The taxa `taxon/get` read most recently.
    let taxonCache = TaxonCache()
    /// What typo search keeps of the word vocabulary.
    let vocabularyCache = VocabularyCache()
    /// The best-known names, for autocomplete's short prefixes.
    let prominentNames = ProminentNames()
    /// `languages()`, once read.
    let languagesCache = Locked<[DatabaseLanguage]?>(nil)

    /// The damage a read of this database ran into, if any (reported by `database/info`).
    public var damage: DatabaseDamage? { damageFound.withLock { $0 } }

    /// Opens `url` read-only and checks that it is a taxonomy database this engine can read.
    ///
    /// A database without the engine's search extensions (only the specification's tables) needs
    /// `extensionCache`, where they are built once and attached; without one it is refused. With
    /// `checksContent` (a `--database` file) every value, the tree and the full-text versions are
    /// checked first (`TaxonomyContentCheck`; skipped when the cache records that the file, as it
    /// is now, passed before): a problem is `corrupt`, naming the table, column and row.
    public init(url: URL, source: DatabaseSource, connections: Int = 3, extensionCache: ExtensionCache? = nil, checksContent: Bool = false) throws(DatabaseOpenError) {
        guard FileManager.default.isReadableFile(atPath: url.path) else { throw .unreadable(url.lastPathComponent) }
        if checksContent { try Self.checkContent(url, record: extensionCache) }
        let adapter = try Self.adapter(for: url, cache: extensionCache)
        var config = Configuration()
        config.readonly = true
        config.label = "stol.\(source.rawValue)"
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA trusted_schema = OFF;")
            // 16 MB of pages per connection (SQLite's default is 2 MB): a search touches several
            // indexes, and with an immutable file the cached pages never go stale.
            try db.execute(sql: "PRAGMA cache_size = -16384;")
            try adapter.prepare(db)
            try db.execute(sql: "PRAGMA query_only = 1;")
        }
        var readers: [DatabaseQueue] = []
        do {
            for _ in 0..<max(1, connections) + 1 {
                readers.append(try DatabaseQueue(path: Self.immutableURI(url), configuration: config))
            }
        } catch {
            throw .unreadable("\(url.lastPathComponent): \(error)")
        }
        let facts: (Int, Int, [String: String], Bool, Set<SchemaExtensions.Extension>, Bool)
        do {
            facts = try readers[0].read { db -> (Int, Int, [String: String], Bool, Set<SchemaExtensions.Extension>, Bool) in
                guard try db.tableExists("schema_version"), try db.tableExists("taxa") else {
                    throw DatabaseOpenError.notATaxonomyDatabase
                }
                let version = try db.storedRows("SELECT version, rowid FROM schema_version", rowids: [("schema_version", 1)]) {
                    try $0.integer(0, "schema_version.version")
                }.first ?? 0
                guard version <= Schema.currentVersion, version >= 1 else {
                    throw DatabaseOpenError.incompatibleSchema(found: Int(clamping: version), expected: Schema.currentVersion)
                }
                let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM taxa") ?? 0
                var info: [String: String] = [:]
                if try db.tableExists("dataset_info") {  // in main or in the extension cache
                    try db.makeStatement(sql: "SELECT key, value FROM dataset_info").forEachStoredRow { row in
                        info[try row.text(0, "dataset_info.key")] = try row.text(1, "dataset_info.value")
                    }
                }
                let storesChildCounts = try db.columns(in: "taxa").contains { $0.name == "child_count" }
                let content = try SchemaExtensions.readableContent(db)
                let ranking = try db.tableExists("name_heads") && db.tableExists("taxon_prominence")
                return (Int(version), count, info, storesChildCounts, content, ranking)
            }
        } catch let error as DatabaseOpenError {
            throw error
        } catch let fault as DataFault {
            throw .corrupt(fault.detail)
        } catch {
            if let damage = DatabaseDamage.from(error, source: source) { throw .corrupt(damage.detail) }
            throw .notATaxonomyDatabase
        }
        self.source = source
        self.url = url
        self.inlineReader = readers.removeLast()
        self.readers = readers
        self.busy = Locked([Int](repeating: 0, count: readers.count))
        (self.schemaVersion, self.taxaCount, self.datasetInfo, self.storesChildCounts, self.contentExtensions, self.hasSearchRanking) = facts
        self.sizeBytes = ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? NSNumber)?.int64Value ?? 0
    }

    /// Runs `body` on the least busy connection, off the cooperative thread pool.
    ///
    /// Without a transaction: the file is immutable and the connection read-only, so every read
    /// already sees one unchanging state, and BEGIN/COMMIT per request cost a fifth of `taxon/get`.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let index = busy.withLock { counts -> Int in
            let i = counts.indices.min { counts[$0] < counts[$1] }!
            counts[i] += 1
            return i
        }
        defer { busy.withLock { $0[index] -= 1 } }
        do {
            return try await readers[index].unsafeRead(body)
        } catch {
            throw reported(error)
        }
    }

    /// `fault`, found outside a read (in the in-memory tree), as the damage it is, reported like
    /// the damage a read finds.
    func reporting(_ fault: DataFault) -> DatabaseDamage {
        // `reported` turns every DataFault into a DatabaseDamage.
        reported(fault) as? DatabaseDamage ?? DatabaseDamage(source: source, detail: fault.detail)
    }

    /// Reads the word vocabulary into memory in the background when a search wanted it
    /// (`VocabularyCache`), so that later searches need not read each word from the file.
    public func loadVocabularyIfWanted() {
        guard vocabularyCache.claimLoad() else { return }
        let cache = vocabularyCache
        Task.detached(priority: .utility) { [self] in
            _ = try? await self.read { db in try cache.words(in: db) }
        }
    }

    /// Corrupt pages are a typed, reported condition, not an internal error: the first damage
    /// found is kept for `damage`, and the error becomes a `DatabaseDamage`.
    private func reported(_ error: any Error) -> any Error {
        guard let damage = DatabaseDamage.from(error, source: source) else { return error }
        damageFound.withLock { if $0 == nil { $0 = damage } }
        return damage
    }

    /// Runs `body` at once on the calling thread, on a connection of its own: for the quick reads
    /// answered on the protocol's intake thread, never on the cooperative pool. Concurrent
    /// callers take turns.
    @available(*, noasync, message: "blocks the calling thread; use read(_:) from async code")
    public func readInline<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try inlineReader.unsafeRead(body)
        } catch {
            throw reported(error)
        }
    }

    /// Runs `TaxonomyContentCheck` on `url` unless `record` says it passed as the file is now.
    private static func checkContent(_ url: URL, record cache: ExtensionCache?) throws(DatabaseOpenError) {
        if let record = cache?.contentCheckRecord(for: url), FileManager.default.fileExists(atPath: record.path) { return }
        var config = Configuration()
        config.readonly = true
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA trusted_schema = OFF; PRAGMA query_only = 1;") }
        let problems: [String]
        do {
            let queue = try DatabaseQueue(path: immutableURI(url), configuration: config)
            defer { try? queue.close() }
            problems = try queue.read { db in
                guard try db.tableExists("taxa") else { return [] }  // The open below says what it is.
                return try TaxonomyContentCheck.problems(db)
            }
        } catch {
            throw .corrupt("\(url.lastPathComponent): \(DatabaseDamage.from(error, source: .bundled)?.detail ?? "\(error)")")
        }
        guard problems.isEmpty else { throw .corrupt("\(url.lastPathComponent): " + problems.joined(separator: "; ")) }
        cache?.recordContentChecked(url)
    }

    /// What each connection needs besides the file: views for an older layout, the extension cache.
    private static func adapter(for url: URL, cache: ExtensionCache?) throws(DatabaseOpenError) -> ConnectionAdapter {
        var config = Configuration()
        config.readonly = true
        let found: (legacy: [String], missing: [SchemaExtensions.Extension])
        do {
            let probe = try DatabaseQueue(path: immutableURI(url), configuration: config)
            found = try probe.read { db in
                guard try db.tableExists("taxa") else { return ([], []) }
                let present = try SchemaExtensions.present(db)
                return (try ConnectionAdapter.legacyViews(db), SchemaExtensions.Extension.allCases.filter { $0.cacheable && !present.contains($0) })
            }
        } catch {
            // The open below reports it.
            return ConnectionAdapter(legacyViews: [], cache: nil)
        }
        guard !found.missing.isEmpty else { return ConnectionAdapter(legacyViews: found.legacy, cache: nil) }
        guard let cache else {
            // Without the ranking tables search still works, by simpler rules (`hasSearchRanking`).
            guard found.missing.contains(.searchIndex) else { return ConnectionAdapter(legacyViews: found.legacy, cache: nil) }
            throw .missingExtensions(found.missing.map(\.rawValue))
        }
        do {
            return ConnectionAdapter(legacyViews: found.legacy, cache: try cache.prepare(for: url, extensions: found.missing))
        } catch let error as DatabaseOpenError {
            throw error
        } catch {
            throw .unreadable("cannot build the search extensions of \(url.lastPathComponent) into \(cache.directory.path): \(error)")
        }
    }

    static func immutableURI(_ url: URL) -> String {
        var path = url.standardizedFileURL.path
        // Percent-encode the characters that would end or confuse a URI path.
        for (raw, encoded) in [("%", "%25"), ("?", "%3f"), ("#", "%23")] { path = path.replacingOccurrences(of: raw, with: encoded) }
        return "file:\(path)?immutable=1"
    }
}

/// Why a taxonomy database could not be opened.
public enum DatabaseOpenError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(String)
    case notATaxonomyDatabase
    case incompatibleSchema(found: Int, expected: Int)
    /// The database lacks the engine's search extensions and there is nowhere to build them.
    case missingExtensions([String])
    /// The file is damaged, or its data breaks the schema (a `DataFault`); the detail says where.
    case corrupt(String)

    public var description: String {
        switch self {
        case .missingExtensions(let names): "the database lacks the engine extensions \(names.joined(separator: ", ")) and no cache can be built"
        case .unreadable(let detail): "cannot open \(detail)"
        case .notATaxonomyDatabase: "not a stol taxonomy database"
        case .corrupt(let detail): "the database is corrupt: \(detail)"
        case let .incompatibleSchema(found, expected): "schema version \(found) is newer than the supported \(expected)"
        }
    }
}
