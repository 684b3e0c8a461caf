import Foundation
import GRDB
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine

/// `IntegrityCheck`, the check `database/import` and `build-db` run: a sound file passes and a
/// damaged index is found whatever the digests' seed, the seed changes every digest, and an
/// interrupted check throws instead of passing.
@Suite struct IntegrityCheckTests {
    typealias Fixture = IndexContentChecking

    static let table = """
        CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, code INTEGER);
        CREATE INDEX idx_name ON t(name);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
        INSERT INTO t SELECT i, 'name ' || (i * 7919 % 2000), i % 50 FROM n;
        """

    @Test(arguments: [UInt64(0), 1, .random(in: .min ... .max)])
    func findsADamagedIndexWhateverTheSeed(seed: UInt64) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sound = try Fixture.database(dir, "sound.sqlite", Self.table)
        try sound.close()
        let stale = try Fixture.database(dir, "stale.sqlite", Self.table, edit: Fixture.staleIndex("idx_name", change: "UPDATE t SET name = 'renamed' WHERE id = 17"))
        try stale.close()
        let cache = "PRAGMA cache_size = -2000;"
        #expect(try IntegrityCheck(path: dir.url.appendingPathComponent("sound.sqlite").path, cache: cache, seed: seed).problems() == [])
        let found = try IntegrityCheck(path: dir.url.appendingPathComponent("stale.sqlite").path, cache: cache, seed: seed).problems()
        #expect(found == ["index idx_name does not hold its table's rows"])
    }

    @Test func theSeedKeysEveryDigest() {
        let values: [UInt64] = [42, 7]
        var digests = [UInt64(0), 1, 2, 1 << 63].map { IndexContentCheck.Digest(seed: $0) }
        for i in digests.indices { values.withUnsafeBufferPointer { digests[i].add(values: $0, rowid: 9) } }
        #expect(Set(digests.map(\.first)).count == 4)
        #expect(Set(digests.map(\.second)).count == 4)
        var again = IndexContentCheck.Digest(seed: 1)
        values.withUnsafeBufferPointer { again.add(values: $0, rowid: 9) }
        #expect(again == digests[1])
    }

    @Test func anInterruptedCheckThrows() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Fixture.database(dir, "sound.sqlite", Self.table).close()
        let check = IntegrityCheck(path: dir.url.appendingPathComponent("sound.sqlite").path, cache: "PRAGMA cache_size = -2000;", seed: 3)
        check.interrupt()
        #expect(throws: CancellationError.self) { try check.problems() }
    }
}
