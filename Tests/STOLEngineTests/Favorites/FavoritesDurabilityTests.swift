import Foundation
import GRDB
import GRDBSQLite
import STOLProtocol
import Testing

@testable import STOLEngine

extension FavoritesTests {
    /// The file holds every acknowledged change by itself, a log SQLite would cut short is caught,
    /// and "Clear All" leaves nothing of the removed favourites in any file.
    @Suite struct DurabilityTests {
        /// A favourites file as an older engine left it: WAL mode, every row only in the -wal.
        /// Returns the main file's and the log's bytes, taken while the writer still held them.
        static func legacyWALFiles(rows: Int) throws -> (main: Data, wal: Data) {
            let folder = try FavoritesFolder()
            defer { folder.remove() }
            var config = Configuration()
            config.prepareDatabase { db in
                var flag: Int32 = 1
                _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &flag)
            }
            let queue = try DatabaseQueue(path: folder.file.path, configuration: config)
            try queue.writeWithoutTransaction { db in
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                try db.execute(sql: """
                    PRAGMA wal_autocheckpoint = 0;
                    CREATE TABLE favorites(taxon_id INTEGER PRIMARY KEY, created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')));
                    CREATE INDEX idx_favorites_created ON favorites(created_at);
                    PRAGMA user_version = 1;
                    """)
            }
            for id in 1...rows {
                try queue.write { db in try db.execute(sql: "INSERT INTO favorites(taxon_id) VALUES (?)", arguments: [id]) }
            }
            let files = (try Data(contentsOf: folder.file), try Data(contentsOf: URL(fileURLWithPath: folder.file.path + "-wal")))
            try queue.close()
            return files
        }

        static func install(_ files: (main: Data, wal: Data), in folder: FavoritesFolder) throws {
            try files.main.write(to: folder.file)
            try files.wal.write(to: URL(fileURLWithPath: folder.file.path + "-wal"))
        }

        @Test func aHealthyLegacyLogIsReplayedIntoTheFileAndRemoved() async throws {
            let files = try Self.legacyWALFiles(rows: 5)
            #expect(WriteAheadLogCheck.damage(in: Array(files.wal)) == nil)
            let folder = try FavoritesFolder()
            defer { folder.remove() }
            try Self.install(files, in: folder)
            let (store, recovery) = try folder.open()
            #expect(recovery == nil)
            #expect(try await store.allIDs() == Set(1...5))
            try store.close()
            // The main file alone now holds all five: no -wal is left.
            #expect(!FileManager.default.fileExists(atPath: folder.file.path + "-wal"))
            let copy = try FavoritesFolder()
            defer { copy.remove() }
            try FileManager.default.copyItem(at: folder.file, to: copy.file)
            #expect(try await copy.open().store.allIDs() == Set(1...5))
        }

        @Test func aLogWithABadFrameOrHeaderIsMovedAsideAndReported() async throws {
            let files = try Self.legacyWALFiles(rows: 5)
            let pageSize = 4096, frame = 24 + pageSize
            var badFrame = files.wal
            badFrame[32 + frame * 2 + 24 + 100] ^= 0xFF  // page data of the third frame
            var badHeader = files.wal
            badHeader[12] ^= 0x01  // checkpoint sequence: the header checksum no longer holds
            for wal in [badFrame, badHeader] {
                #expect(WriteAheadLogCheck.damage(in: Array(wal)) != nil)
                let folder = try FavoritesFolder()
                defer { folder.remove() }
                try Self.install((files.main, wal), in: folder)
                let (store, recovery) = try folder.open()
                let moved = try #require(recovery)
                #expect(try await store.allIDs().isEmpty)
                // The damaged pair is kept aside untouched, for a person to look at.
                let aside = try folder.asideFiles()
                #expect(aside.contains(moved.movedAsideTo) && aside.contains(moved.movedAsideTo + "-wal"))
                #expect(try Data(contentsOf: folder.directory.appendingPathComponent(moved.movedAsideTo + "-wal")) == wal)
            }
        }

        @Test func aTornLastFrameIsACrashNotDamage() throws {
            let files = try Self.legacyWALFiles(rows: 3)
            #expect(WriteAheadLogCheck.damage(in: Array(files.wal.prefix(files.wal.count - 1000))) == nil)
            #expect(WriteAheadLogCheck.damage(in: []) == nil)
            #expect(WriteAheadLogCheck.damage(in: Array(repeating: 7, count: 10)) != nil)
        }

        @Test func everyChangeIsInTheMainFileAndClearLeavesNoTrace() async throws {
            let folder = try FavoritesFolder()
            defer { folder.remove() }
            let (store, _) = try folder.open()
            for id in [111_111_111, 222_222_222, 333_333_333] as [Int64] { #expect(try await store.add(id)) }
            let stamps = try await store.rows().map(\.createdAt)
            // Between changes only the main file exists: no -wal, no journal.
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.directory.path)
            #expect(Set(names) == [FavoritesStore.fileName, FavoritesStore.reserveName])
            #expect(try await store.clear() == 3)
            try store.close()
            let bytes = try Data(contentsOf: folder.file)
            for stamp in stamps { #expect(bytes.range(of: Data(stamp.utf8)) == nil, "\(stamp) is still in the file") }
            #expect(try Set(FileManager.default.contentsOfDirectory(atPath: folder.directory.path)) == [FavoritesStore.fileName, FavoritesStore.reserveName])
        }

        @Test func recentOrderIsTheOrderOfAddingEvenWhenTheClockIsBehind() async throws {
            let folder = try FavoritesFolder()
            defer { folder.remove() }
            let (store, _) = try folder.open()
            // A favourite stamped an hour ahead, as if the clock had since jumped back.
            try await store.queue.write { db in
                try db.execute(sql: "INSERT INTO favorites(taxon_id, created_at) VALUES (1, ?)", arguments: [Timestamp.iso(Date().addingTimeInterval(3600))])
            }
            #expect(try await store.add(2))
            #expect(try await store.toggle(3))
            #expect(try await store.rows().map(\.taxonID) == [3, 2, 1])
        }
    }
}
