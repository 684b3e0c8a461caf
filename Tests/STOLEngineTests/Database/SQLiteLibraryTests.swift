import GRDB
import STOLProtocol
import Testing

@testable import STOLEngine

/// `SQLiteLibrary`'s settings are the process's: once a connection has been opened they can no
/// longer change, and asking says so instead of failing later.
@Suite struct SQLiteLibraryTests {
    @Test func memoryStatisticsStayOnceSQLiteIsInUse() throws {
        let queue = try DatabaseQueue()
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
        #expect(!SQLiteLibrary.turnOffMemoryStatistics())
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT 2") } == 2)
    }
}
