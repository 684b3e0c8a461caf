import Foundation
import GRDB
import STOLProtocol
import Testing

@testable import STOLEngine

extension FavoritesTests {
    @Suite struct ServiceTests {
        func service(_ folder: FavoritesFolder) -> FavoritesService {
            FavoritesService(directory: folder.directory, logger: FavoritesFolder.logger)
        }

        /// The ids in the file, read with a separate connection.
        func idsOnDisk(_ folder: FavoritesFolder) throws -> Set<Int64> {
            let queue = try DatabaseQueue(path: folder.file.path)
            defer { try? queue.close() }
            return try queue.read { db in Set(try Int64.fetchAll(db, sql: "SELECT taxon_id FROM favorites")) }
        }

        @Test func nothingIsCreatedUntilFirstUse() async throws {
            let folder = try FavoritesFolder()
            defer { folder.remove() }
            try FileManager.default.removeItem(at: folder.directory)
            let favorites = service(folder)
            #expect(!FileManager.default.fileExists(atPath: folder.directory.path))
            #expect(try await favorites.count() == 0)
            #expect(FileManager.default.fileExists(atPath: folder.file.path))
        }

        @Test func mutationsReportWhatChangedAndTheNewCount() async throws {
            let folder = try FavoritesFolder()
            defer { folder.remove() }
            let favorites = service(folder)
            #expect(try await favorites.add(10) == .init(changed: true, count: 1))
            #expect(try await favorites.add(10) == .init(changed: false, count: 1))
            #expect(try await favorites.add(20) == .init(changed: true, count: 2))
            #expect(try await favorites.contains(10))
            #expect(try await favorites.contains(11) == false)
            #expect(try await favorites.contains([10, 11, 20, 10]) == [10: true, 11: false, 20: true])
            let toggled = try await favorites.toggle(30)
            #expect(toggled.isFavorite && toggled.change == .init(changed: true, count: 3))
            let untoggled = try await favorites.toggle(30)
            #expect(!untoggled.isFavorite && untoggled.change == .init(changed: true, count: 2))
            let removed = try await favorites.remove([10, 99])
            #expect(removed.removed == 1 && removed.change == .init(changed: true, count: 1))
            let none = try await favorites.remove([99])
            #expect(none.removed == 0 && !none.change.changed)
            #expect(try idsOnDisk(folder) == [20])
            let cleared = try await favorites.clear()
            #expect(cleared.removed == 1 && cleared.change == .init(changed: true, count: 0))
            #expect(try await favorites.clear().change.changed == false)
            #expect(try await favorites.count() == 0)
        }

        @Test func aNewServiceWarmsItsSetFromTheFile() async throws {
            let folder = try FavoritesFolder()
            defer { folder.remove() }
            do {
                let first = service(folder)
                for id in [3, 1, 2] as [Int64] { _ = try await first.add(id) }
            }
            let second = service(folder)
            #expect(try await second.count() == 3)
            #expect(try await second.contains([1, 2, 3, 4]) == [1: true, 2: true, 3: true, 4: false])
            #expect(try await second.status().recovery == nil)
        }

        @Test func concurrentMutationsKeepTheSetAndTheFileInStep() async throws {
            let folder = try FavoritesFolder()
            defer { folder.remove() }
            let favorites = service(folder)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in 1...200 as ClosedRange<Int64> {
                    group.addTask { _ = try await favorites.add(id % 50 + 1) }
                    group.addTask { _ = try await favorites.toggle(1000 + id % 7) }
                    if id % 10 == 0 { group.addTask { _ = try await favorites.remove([id % 50 + 1]) } }
                }
                try await group.waitForAll()
            }
            let count = try await favorites.count()
            let onDisk = try idsOnDisk(folder)
            #expect(onDisk.count == count)
            #expect(try await favorites.contains(Array(onDisk)).values.allSatisfy { $0 })
            #expect(try await favorites.rows().count == count)
        }

        @Test func aRecoveryIsReportedInStatus() async throws {
            let folder = try FavoritesFolder()
            defer { folder.remove() }
            try Data(repeating: 0x42, count: 3000).write(to: folder.file)
            let favorites = service(folder)
            let status = try await favorites.status()
            #expect(status.count == 0)
            #expect(status.bytes > 0)
            let recovery = try #require(status.recovery)
            #expect(try folder.asideFiles() == [recovery.movedAsideTo])
        }

        @Test func whenTheFileCannotBeOpenedEveryCallFailsWithATypedError() async throws {
            let folder = try FavoritesFolder()
            defer { folder.remove() }
            let blocker = folder.root.appendingPathComponent("blocker")
            try Data().write(to: blocker)
            let favorites = FavoritesService(directory: blocker.appendingPathComponent("Favorites"), logger: FavoritesFolder.logger)
            for _ in 0..<2 {
                await #expect(throws: FavoritesError.self) { try await favorites.count() }
                await #expect(throws: FavoritesError.self) { try await favorites.add(1) }
            }
        }
    }

    @Suite struct ListingTests {
        func entry(_ id: Int64, _ at: String, _ scientific: String?, _ common: String? = nil) -> FavoriteEntry {
            FavoriteEntry(taxonId: id, createdAt: at, available: scientific != nil, scientificName: scientific, commonName: common)
        }

        var entries: [FavoriteEntry] {
            [
                entry(1, "2026-01-01T00:00:00.000Z", "Panthera tigris", "Tiger"),
                entry(2, "2026-01-01T00:00:00.002Z", "Panthera leo", "Lion"),
                entry(3, "2026-01-01T00:00:00.001Z", "Escherichia coli"),
                entry(4, "2026-01-01T00:00:00.002Z", nil),
                entry(5, "2026-01-01T00:00:00.003Z", "Rosa canina", "dog rose"),
                entry(6, "2026-01-01T00:00:00.000Z", "Aquila chrysaetos", "Águila real"),
                entry(7, "2026-01-01T00:00:00.000Z", nil),
                entry(8, "2026-01-01T00:00:00.000Z", "Bacillus"),
            ]
        }

        @Test func recentIsNewestFirstThenTaxonID() {
            #expect(FavoritesListing.sorted(entries, by: .recent).map(\.taxonId) == [5, 2, 4, 3, 1, 6, 7, 8])
        }

        @Test func scientificIsAToZWithUnavailableLast() {
            #expect(FavoritesListing.sorted(entries, by: .scientific).map(\.taxonId) == [6, 8, 3, 2, 1, 5, 4, 7])
        }

        @Test func commonIsAToZIgnoringCaseAndAccentsThenTheNameless() {
            // Águila, dog rose, Lion, Tiger; then Bacillus, Escherichia; then the unavailable.
            #expect(FavoritesListing.sorted(entries, by: .common).map(\.taxonId) == [6, 5, 2, 1, 8, 3, 4, 7])
        }

        @Test func exportIsNamesOnlyAndSkipsUnavailable() {
            let text = FavoritesExport.text(FavoritesListing.sorted(entries, by: .scientific))
            #expect(text == """
                My Favourite Species — Species: Tree of Life

                1. Aquila chrysaetos (Águila real)
                2. Bacillus
                3. Escherichia coli
                4. Panthera leo (Lion)
                5. Panthera tigris (Tiger)
                6. Rosa canina (dog rose)

                """)
            #expect(FavoritesExport.text([]) == "My Favourite Species — Species: Tree of Life\n\n")
        }
    }
}
