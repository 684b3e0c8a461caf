import Foundation
import GRDB
import Logging
import STOLProtocol
import Testing

@testable import STOLEngine

/// All favourites unit tests nest here, so `swift test --filter Favorites` selects them.
@Suite enum FavoritesTests {}

/// A fresh `<tmp>/…/Favorites` directory for one test.
struct FavoritesFolder {
    let root: URL
    var directory: URL { root.appendingPathComponent("Favorites") }
    var file: URL { directory.appendingPathComponent(FavoritesStore.fileName) }
    static let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("stol-favorites-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }

    func open() throws -> (store: FavoritesStore, recovery: FavoritesRecovery?) {
        try FavoritesStore.open(directory: directory, logger: Self.logger)
    }

    /// Names in the directory other than the live database and its -wal/-shm.
    func asideFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".corrupt-") }.sorted()
    }

    /// Writes a plain SQLite file with `sql`, outside GRDB's WAL set-up.
    func makeDatabase(_ sql: String) throws {
        let queue = try DatabaseQueue(path: file.path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: sql) }
        try queue.close()
    }
}

extension FavoritesTests {
    @Suite struct StoreTests {
        @Test func freshFileHasExactlyTheSeedSchema() async throws {
            let folder = try FavoritesFolder()
            defer { folder.remove() }
            let (store, recovery) = try folder.open()
            #expect(recovery == nil)
            #expect(FileManager.default.fileExists(atPath: folder.file.path))
            let facts = try await store.queue.read { db in
                (
                    columns: try GRDB.Row.fetchAll(db, sql: "PRAGMA table_info(favorites)").map { [$0["name"], $0["type"], String(describing: $0["notnull"] as Int), String(describing: $0["pk"] as Int)] as [String] },
                    objects: try String.fetchAll(db, sql: "SELECT type || ' ' || name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name"),
                    version: try Int.fetchOne(db, sql: "PRAGMA user_version"),
                    journal: try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                    synchronous: try Int.fetchOne(db, sql: "PRAGMA synchronous"),
                    defaultValue: try String.fetchOne(db, sql: "SELECT dflt_value FROM pragma_table_info('favorites') WHERE name = 'created_at'"))
            }
            // The privacy invariant: a favourite is a taxon id and a time, nothing else.
            #expect(facts.columns == [["taxon_id", "INTEGER", "0", "1"], ["created_at", "TEXT", "1", "0"]])
            #expect(facts.objects == ["table favorites", "index idx_favorites_created"])
            #expect(facts.version == FavoritesStore.schemaVersion)
            #expect(facts.version == 1)
            #expect(facts.journal == "delete")
            #expect(facts.synchronous == 2, "synchronous=FULL")
            #expect(facts.defaultValue == "strftime('%Y-%m-%dT%H:%M:%fZ','now')")
        }

        @Test func mutationsAndReads() async throws {
            let folder = try FavoritesFolder()
            defer { folder.remove() }
            let store = try folder.open().store
            #expect(try await store.add(5))
            #expect(try await store.add(5) == false)
            #expect(try await store.add(7))
            #expect(try await store.allIDs() == [5, 7])
            #expect(try await store.remove([5, 5, 99]) == [5])
            #expect(try await store.toggle(8))
            #expect(try await store.toggle(8) == false)
            #expect(try await store.toggle(9))
            #expect(try await store.allIDs() == [7, 9])
            let rows = try await store.rows()
            #expect(rows.count == 2)
            #expect(rows.allSatisfy { $0.createdAt.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil })
            let bytes = try await store.storageBytes()
            let expected = try await store.queue.read { db in
                (try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0) * (try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 0)
            }
            #expect(bytes == expected && bytes > 0)
            #expect(try await store.clear() == 2)
            #expect(try await store.clear() == 0)
            #expect(try await store.allIDs().isEmpty)
        }

        @Test func addsInTheSameMillisecondAreOrderedByTaxonID() async throws {
            let folder = try FavoritesFolder()
            defer { folder.remove() }
            let store = try folder.open().store
            try await store.queue.write { db in
                try db.execute(sql: """
                    INSERT INTO favorites(taxon_id, created_at) VALUES
                        (30, '2026-01-01T00:00:00.000Z'), (10, '2026-01-01T00:00:00.000Z'),
                        (20, '2026-01-01T00:00:00.000Z'), (40, '2025-12-31T23:59:59.999Z'), (5, '2026-01-01T00:00:00.001Z')
                    """)
            }
            #expect(try await store.rows().map(\.taxonID) == [5, 10, 20, 30, 40])
            // Rows inserted by one statement share SQLite's 'now', so the default gives one timestamp.
            try await store.queue.write { db in try db.execute(sql: "INSERT INTO favorites(taxon_id) VALUES (300), (100), (200)") }
            let newest = try await store.rows().prefix(3)
            #expect(Set(newest.map(\.createdAt)).count == 1)
            #expect(newest.map(\.taxonID) == [100, 200, 300])
        }

        @Test func versionZeroFilesAreMigratedKeepingTheirRows() async throws {
            let folder = try FavoritesFolder()
            defer { folder.remove() }
            // A file from before user_version was set, with the seed's table and a row.
            try folder.makeDatabase("""
                CREATE TABLE favorites(taxon_id INTEGER PRIMARY KEY, created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')));
                INSERT INTO favorites VALUES (42, '2020-01-01T00:00:00.000Z');
                """)
            let store = try folder.open().store
            #expect(try await store.rows() == [.init(taxonID: 42, createdAt: "2020-01-01T00:00:00.000Z")])
            let facts = try await store.queue.read { db in
                (try Int.fetchOne(db, sql: "PRAGMA user_version"), try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'"))
            }
            #expect(facts.0 == 1)
            #expect(facts.1 == ["idx_favorites_created"])
            #expect(try folder.asideFiles().isEmpty)
        }

        /// The engine never leaves a zero-length file (it creates the file under another name and
        /// renames it), so one is a file cut short: reported and moved aside, never silently reused.
        @Test func anEmptyFileIsMovedAsideAndReported() async throws {
            let folder = try FavoritesFolder()
            defer { folder.remove() }
            _ = FileManager.default.createFile(atPath: folder.file.path, contents: Data())
            let (store, recovery) = try folder.open()
            let moved = try #require(recovery)
            #expect(try folder.asideFiles() == [moved.movedAsideTo])
            #expect(try await store.add(1))
        }

        @Test func aFileFromANewerEngineIsRefusedAndLeftUntouched() throws {
            let folder = try FavoritesFolder()
            defer { folder.remove() }
            try folder.makeDatabase("""
                CREATE TABLE favorites(taxon_id INTEGER PRIMARY KEY, created_at TEXT NOT NULL, note TEXT);
                INSERT INTO favorites VALUES (1, '2030-01-01T00:00:00.000Z', 'x');
                PRAGMA user_version = 7;
                """)
            let before = try Data(contentsOf: folder.file)
            #expect(throws: FavoritesError.newerVersion(found: 7, supported: 1)) { try folder.open() }
            #expect(try Data(contentsOf: folder.file) == before)
            #expect(try folder.asideFiles().isEmpty)
            let error = FavoritesError.newerVersion(found: 7, supported: 1).rpcError
            #expect(error.code == -32010)
            #expect(error.data?["kind"] == "favoritesNewerVersion")
        }

        @Test func aNewerFileWithAPendingWALIsNotCheckpointedEither() throws {
            let source = try FavoritesFolder()
            let folder = try FavoritesFolder()
            defer { source.remove(); folder.remove() }
            // A newer engine's file as a crash leaves it: rows still in the -wal.
            let writer = try DatabaseQueue(path: source.file.path)
            try writer.writeWithoutTransaction { db in
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 0; CREATE TABLE favorites(taxon_id INTEGER PRIMARY KEY, created_at TEXT); PRAGMA user_version = 2")
                try db.execute(sql: "INSERT INTO favorites VALUES (1, 'x'), (2, 'y')")
            }
            for suffix in ["", "-wal"] {
                try FileManager.default.copyItem(atPath: source.file.path + suffix, toPath: folder.file.path + suffix)
            }
            try writer.close()
            let before = try ["", "-wal"].map { try Data(contentsOf: URL(fileURLWithPath: folder.file.path + $0)) }
            #expect(before[1].count > 0)
            #expect(throws: FavoritesError.newerVersion(found: 2, supported: 1)) { try folder.open() }
            let after = try ["", "-wal"].map { try Data(contentsOf: URL(fileURLWithPath: folder.file.path + $0)) }
            #expect(after == before)
        }

        @Test func garbageIsMovedAsideWithItsWALAndAFreshDatabaseStarts() async throws {
            let folder = try FavoritesFolder()
            defer { folder.remove() }
            let garbage = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 13) })
            try garbage.write(to: folder.file)
            try Data("wal garbage".utf8).write(to: URL(fileURLWithPath: folder.file.path + "-wal"))
            let (store, recovery) = try folder.open()
            let moved = try #require(recovery)
            #expect(moved.movedAsideTo.hasPrefix("favorites.sqlite.corrupt-"))
            #expect(!moved.movedAsideTo.contains("/"))
            #expect(moved.at.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
            let aside = try folder.asideFiles()
            #expect(aside.contains(moved.movedAsideTo) && aside.contains(moved.movedAsideTo + "-wal"), "\(aside)")
            #expect(aside.allSatisfy { $0.hasPrefix(moved.movedAsideTo) })
            #expect(try Data(contentsOf: folder.directory.appendingPathComponent(moved.movedAsideTo + "-wal")) == Data("wal garbage".utf8))
            // Never deleted: the user's bytes are all still there.
            #expect(try Data(contentsOf: folder.directory.appendingPathComponent(moved.movedAsideTo)) == garbage)
            #expect(try await store.allIDs().isEmpty)
            #expect(try await store.add(3))
            // A second damaged file in the same millisecond gets its own name.
            try store.queue.close()
            try garbage.write(to: folder.file)
            try? FileManager.default.removeItem(atPath: folder.file.path + "-wal")
            try? FileManager.default.removeItem(atPath: folder.file.path + "-shm")
            let again = try #require(try folder.open().recovery)
            #expect(again.movedAsideTo != moved.movedAsideTo)
            #expect(try folder.asideFiles() == (aside + [again.movedAsideTo]).sorted())
        }

        @Test func damagedPagesFailTheIntegrityCheckAndAreMovedAside() async throws {
            let folder = try FavoritesFolder()
            defer { folder.remove() }
            do {
                let store = try folder.open().store
                try await store.queue.write { db in
                    for id in 1...3000 as ClosedRange<Int64> { try db.execute(sql: "INSERT INTO favorites(taxon_id) VALUES (?)", arguments: [id]) }
                }
                try await store.queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
                try store.queue.close()
            }
            // Scribble over the middle of the file, leaving the header readable.
            var bytes = try Data(contentsOf: folder.file)
            #expect(bytes.count > 16384)
            for i in 8192..<(bytes.count - 4096) where i % 3 == 0 { bytes[i] = 0xA5 }
            try bytes.write(to: folder.file)
            let (store, recovery) = try folder.open()
            #expect(recovery != nil)
            #expect(try folder.asideFiles().first == recovery?.movedAsideTo)
            #expect(try await store.allIDs().isEmpty)
        }

        @Test func aForeignTableIsMovedAsideNotReused() async throws {
            let folder = try FavoritesFolder()
            defer { folder.remove() }
            try folder.makeDatabase("CREATE TABLE favorites(id TEXT, name TEXT); PRAGMA user_version = 1;")
            let (store, recovery) = try folder.open()
            #expect(recovery != nil)
            #expect(try await store.add(1))
        }

        @Test func anUnwritableFolderIsATypedError() throws {
            let folder = try FavoritesFolder()
            defer { folder.remove() }
            let blocker = folder.root.appendingPathComponent("file")
            try Data().write(to: blocker)
            #expect(throws: FavoritesError.self) {
                try FavoritesStore.open(directory: blocker.appendingPathComponent("Favorites"), logger: FavoritesFolder.logger)
            }
            #expect(FavoritesError.unavailable("x").rpcError.data?["kind"] == "favoritesUnavailable")
        }
    }
}
