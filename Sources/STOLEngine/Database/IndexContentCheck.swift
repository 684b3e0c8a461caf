import GRDB
import GRDBSQLite

/// What `integrity_check(T)` checks beyond `quick_check(T)`: that every index of a table holds
/// exactly one entry per row, with that row's values, in the index's order, and no two equal keys
/// where it is UNIQUE. Checked in one pass over the table and one over each index, each b-tree
/// read in the order it is stored.
///
/// SQLite's own check looks every row up in every index, in rowid order. NCBI's tax ids are
/// scattered, so consecutive taxa have their parents and names anywhere in those indexes, and
/// each look-up descends a b-tree somewhere new (NCBI's `taxa`: 2.9 s for what scans do in 0.8).
/// Here the entries the table's rows make and the entries each index holds are summed into two
/// multiset digests of 64 bits each: equal digests, equal counts and an index in strictly
/// ascending order mean the index holds exactly the table's entries, but for a chance of about
/// 2^-64 (two values whose 64-bit hashes collide).
///
/// A table this does not model is left to `integrity_check(T)` (`problems` returns nil): one
/// without rowid or with hidden columns, a partial or expression index, a collation other than
/// BINARY, NOCASE and RTRIM, a key holding a REAL or a BLOB, a database not in UTF-8.
package enum IndexContentCheck {
    /// The problems of `table`'s indexes, as sentences (none when they match the table); nil
    /// when `integrity_check(table)` must check them instead. Assumes `quick_check(table)` passed.
    ///
    /// `seed` keys the digests. A file someone may have made to fool the check (an imported one)
    /// is checked with a seed drawn at random, so that digests cannot be made to collide without
    /// knowing it.
    ///
    /// With `statistics`, each index's entries and distinct key prefixes, as counted by the pass
    /// over it, go there (what `ANALYZE` would write in `sqlite_stat1`), and the row count of a
    /// table without indexes. With `values`, the pass over the table also hands each row to it
    /// (it is `complete` afterwards), so that the values are checked without a pass of their own.
    package static func problems(_ db: Database, table: String, seed: UInt64 = 0, statistics: PlannerStatistics? = nil) throws -> [String]? {
        var none: StoredValueCheck.Pass?
        return try problems(db, table: table, seed: seed, statistics: statistics, values: &none)
    }

    /// `problems(_:table:seed:statistics:)`, handing each row of the pass over the table to `values`.
    static func problems(_ db: Database, table: String, seed: UInt64 = 0, statistics: PlannerStatistics? = nil,
                         values: inout StoredValueCheck.Pass?) throws -> [String]? {
        guard let layout = try TableLayout(db, table: table) else { return nil }
        if layout.indexes.isEmpty {
            if let statistics { statistics.record(table: table, rows: try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.quotedDatabaseIdentifier)") ?? 0) }
            return []
        }
        try db.execute(sql: "PRAGMA reverse_unordered_selects = OFF")
        guard let tableDigests = try digestsOfRows(db, layout, seed: seed, values: &values) else { return nil }
        var problems: [String] = []
        var counted: [(index: String, entries: Int, distinct: [Int])] = []
        for (index, expected) in zip(layout.indexes, tableDigests) {
            guard let scan = try scanIndex(db, layout, index, seed: seed) else { return nil }
            counted.append((index.name, scan.digest.count, scan.distinct))
            problems += scan.problems
            if scan.digest.count != expected.count {
                problems.append("wrong # of entries in index \(index.name): \(scan.digest.count) for \(expected.count) rows")
            } else if scan.digest != expected {
                problems.append("index \(index.name) does not hold its table's rows")
            }
        }
        for entry in counted { statistics?.record(table: table, index: entry.index, entries: entry.entries, distinct: entry.distinct) }
        return problems
    }

    // MARK: - The table's layout

    /// A collation the check compares with as SQLite does.
    enum Collation {
        case binary, nocase, rtrim

        init?(_ name: String) {
            switch name.uppercased() {
            case "BINARY": self = .binary
            case "NOCASE": self = .nocase
            case "RTRIM": self = .rtrim
            default: return nil
            }
        }
    }

    /// One key column of an index.
    struct KeyColumn {
        /// The column's name in the table.
        var name: String
        /// Its position in the table pass's row.
        var position: Int
        var collation: Collation
        var descending: Bool
    }

    /// An index the check models: key columns, then the rowid.
    struct CheckedIndex {
        var name: String
        var unique: Bool
        var keys: [KeyColumn]
    }

    /// What the two passes read: the table's indexed columns, its rowid's name and its indexes.
    struct TableLayout {
        var table: String
        /// A name of the rowid that no column shadows.
        var rowid: String
        /// The indexed columns, each once, in the order the table pass selects them.
        var columns: [String] = []
        var indexes: [CheckedIndex] = []

        /// Nil when the table is not one the check models.
        init?(_ db: Database, table: String) throws {
            self.table = table
            guard try String.fetchOne(db, sql: "PRAGMA encoding")?.uppercased() == "UTF-8" else { return nil }
            // pragma_table_list came with SQLite 3.37; without it, SQLite's own check does the work.
            guard let listed = try? Row.fetchOne(db, sql: "SELECT type, wr FROM pragma_table_list WHERE name = ? AND schema = 'main'", arguments: [table]),
                  (listed[0] as String) != "virtual", (listed[1] as Int) == 0 else { return nil }
            let columns = try Row.fetchAll(db, sql: "SELECT name, hidden FROM pragma_table_xinfo(?)", arguments: [table])
            guard columns.allSatisfy({ ($0[1] as Int) == 0 }) else { return nil }
            let names = Set(columns.map { ($0[0] as String).lowercased() })
            guard let rowid = ["rowid", "_rowid_", "oid"].first(where: { !names.contains($0) }) else { return nil }
            self.rowid = rowid
            for listedIndex in try Row.fetchAll(db, sql: "SELECT name, \"unique\", partial FROM pragma_index_list(?) ORDER BY name", arguments: [table]) {
                let name: String = listedIndex[0]
                guard (listedIndex[2] as Int) == 0 else { return nil }
                var keys: [KeyColumn] = []
                var rowidColumns = 0
                for column in try Row.fetchAll(db, sql: "SELECT cid, name, \"desc\", coll, key FROM pragma_index_xinfo(?) ORDER BY seqno", arguments: [name]) {
                    let cid: Int = column[0]
                    guard (column[4] as Int) == 1 else {
                        // The one column after the key: the rowid.
                        guard cid == -1 else { return nil }
                        rowidColumns += 1
                        continue
                    }
                    guard cid >= 0, let columnName = column[1] as String?, let collation = Collation(column[3] as String? ?? "BINARY") else { return nil }
                    if !self.columns.contains(columnName) { self.columns.append(columnName) }
                    let position = self.columns.firstIndex(of: columnName)!
                    keys.append(KeyColumn(name: columnName, position: position, collation: collation, descending: (column[2] as Int) != 0))
                }
                guard rowidColumns == 1, !keys.isEmpty else { return nil }
                indexes.append(CheckedIndex(name: name, unique: (listedIndex[1] as Int) != 0, keys: keys))
            }
        }
    }

    // MARK: - The two passes

    /// A multiset digest of index entries: two sums of differently seeded entry hashes, and a count.
    struct Digest: Equatable {
        var first: UInt64 = 0
        var second: UInt64 = 0
        var count = 0
        /// The starting states of the two entry hashes, from the check's seed.
        private let start: (UInt64, UInt64)

        init(seed: UInt64) {
            start = (0x243F_6A88_85A3_08D3 ^ seed, ValueHash.mix(0x1319_8A2E_0370_7344 ^ seed))
        }

        static func == (x: Digest, y: Digest) -> Bool {
            x.first == y.first && x.second == y.second && x.count == y.count
        }

        /// Adds the entry whose key values hash to `values` (in key order) and whose rowid is `rowid`.
        mutating func add(values: UnsafeBufferPointer<UInt64>, rowid: Int64) {
            var (a, b) = start
            for v in values {
                a = ValueHash.mix(a ^ v)
                b = ValueHash.mix((b &+ v) &* 0xA409_3822_299F_31D1)
            }
            first &+= ValueHash.mix(a ^ UInt64(bitPattern: rowid))
            second &+= ValueHash.mix((b &+ UInt64(bitPattern: rowid)) &* 0x0827_1EFA_9E28_6B73)
            count += 1
        }
    }

    /// The digests of the entries each index should hold, from one pass over the table in rowid
    /// order; nil when a key holds a value the check does not model.
    private static func digestsOfRows(_ db: Database, _ layout: TableLayout, seed: UInt64, values: inout StoredValueCheck.Pass?) throws -> [Digest]? {
        // The value check's columns come after the rowid, when there is one to feed.
        let valueColumns = values?.columns ?? []
        let list = (layout.columns + [layout.rowid] + valueColumns).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let statement = try db.makeStatement(sql: "SELECT \(list) FROM \(layout.table.quotedDatabaseIdentifier) NOT INDEXED")
        let handle = statement.sqliteStatement
        let rowidColumn = Int32(layout.columns.count)
        var digests = [Digest](repeating: Digest(seed: seed), count: layout.indexes.count)
        var hashes = [UInt64](repeating: 0, count: layout.columns.count)
        // Each index's key positions, one after another, and where each index's start.
        let positions = layout.indexes.flatMap { $0.keys.map(\.position) }
        var starts = [0]
        for index in layout.indexes { starts.append(starts.last! + index.keys.count) }
        var entry = [UInt64](repeating: 0, count: positions.count)
        while try db.nextRow(handle) {
            for column in hashes.indices {
                guard let hash = ValueHash.of(handle, Int32(column)) else { return nil }
                hashes[column] = hash
            }
            let rowid = sqlite3_column_int64(handle, rowidColumn)
            if values?.isDone == false { values?.check(handle, first: rowidColumn + 1, identityColumn: rowidColumn) }
            for p in positions.indices { entry[p] = hashes[positions[p]] }
            entry.withUnsafeBufferPointer { values in
                for i in digests.indices {
                    digests[i].add(values: UnsafeBufferPointer(rebasing: values[starts[i]..<starts[i + 1]]), rowid: rowid)
                }
            }
        }
        values?.complete = true
        return digests
    }

    /// One pass over an index in its stored order: the digest of its entries, and the places where
    /// an entry does not follow the one before (or repeats its key in a UNIQUE index).
    private struct IndexScan {
        var digest: Digest
        var problems: [String] = []
        /// Per key prefix (first column, first two, …), how many distinct values it takes.
        var distinct: [Int] = []
    }

    /// Scans `index` through a covering scan of the index alone; nil when SQLite would not scan it
    /// so, or a key holds a value the check does not model.
    private static func scanIndex(_ db: Database, _ layout: TableLayout, _ index: CheckedIndex, seed: UInt64) throws -> IndexScan? {
        let list = (index.keys.map(\.name) + [layout.rowid]).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let sql = "SELECT \(list) FROM \(layout.table.quotedDatabaseIdentifier) INDEXED BY \(index.name.quotedDatabaseIdentifier)"
        let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String? ?? "" }
        guard plan.count == 1, plan[0].hasSuffix("USING COVERING INDEX \(index.name)") else { return nil }
        let statement = try db.makeStatement(sql: sql)
        let handle = statement.sqliteStatement
        let n = index.keys.count
        var scan = IndexScan(digest: Digest(seed: seed))
        var hashes = [UInt64](repeating: 0, count: n)
        var previous = EntryKey(count: n), current = EntryKey(count: n)
        var previousRowid: Int64 = 0
        var first = true
        // Changes of each key prefix from one entry to the next (SQLite's `anDLt`).
        var changes = [Int](repeating: 0, count: n)
        let collations = index.keys.map(\.collation), descending = index.keys.map(\.descending)
        while try db.nextRow(handle) {
            for k in 0..<n {
                guard let hash = current.read(handle, Int32(k), into: k) else { return nil }
                hashes[k] = hash
            }
            let rowid = sqlite3_column_int64(handle, Int32(n))
            hashes.withUnsafeBufferPointer { scan.digest.add(values: $0, rowid: rowid) }
            if !first {
                var order = 0
                var differsAt = n
                for k in 0..<n where order == 0 {
                    order = previous.compare(k, with: current, collation: collations[k])
                    if order != 0 { differsAt = k }
                    if descending[k] { order = -order }
                }
                for k in differsAt..<n { changes[k] += 1 }
                guard scan.problems.count < 10 else {
                    swap(&previous, &current)
                    previousRowid = rowid
                    continue
                }
                if order == 0, index.unique, !current.hasNull {
                    scan.problems.append("non-unique entry in index \(index.name) at rowid \(rowid)")
                } else if order > 0 || (order == 0 && previousRowid >= rowid) {
                    scan.problems.append("index \(index.name) is out of order at rowid \(rowid)")
                }
            }
            swap(&previous, &current)
            previousRowid = rowid
            first = false
        }
        scan.distinct = changes.map { $0 + 1 }
        return scan
    }
}

extension IndexContentCheck {
    /// 64-bit hashes of column values: NULL, INTEGER and TEXT, each with its storage class.
    enum ValueHash {
        /// A 64-bit finaliser (MurmurHash3's): every input bit flips about half the output bits.
        @inline(__always)
        static func mix(_ x: UInt64) -> UInt64 {
            var h = x
            h ^= h >> 33
            h &*= 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 33
            h &*= 0xC4CE_B9FE_1A85_EC53
            h ^= h >> 33
            return h
        }

        /// The hash of NULL.
        static let null: UInt64 = 0x9E37_79B9_7F4A_7C15

        /// The hash of an integer.
        @inline(__always)
        static func integer(_ value: Int64) -> UInt64 { mix(UInt64(bitPattern: value) ^ 0x5851_F42D_4C95_7F2D) }

        /// The hash of column `i` of the row `handle` is on; nil for a REAL or a BLOB.
        static func of(_ handle: OpaquePointer?, _ i: Int32) -> UInt64? {
            switch sqlite3_column_type(handle, i) {
            case SQLITE_NULL: return null
            case SQLITE_INTEGER: return integer(sqlite3_column_int64(handle, i))
            case SQLITE_TEXT:
                let bytes = sqlite3_column_text(handle, i)
                let count = Int(sqlite3_column_bytes(handle, i))
                return text(UnsafeRawPointer(bytes), count: count)
            default: return nil
            }
        }

        /// The hash of `count` bytes of text at `bytes`, eight at a time.
        static func text(_ bytes: UnsafeRawPointer?, count: Int) -> UInt64 {
            var h: UInt64 = 0x2545_F491_4F6C_DD1D ^ UInt64(count)
            guard let bytes, count > 0 else { return mix(h) }
            var offset = 0
            while offset + 8 <= count {
                h = mix(h ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            if offset < count {
                var tail: UInt64 = 0
                for i in offset..<count { tail |= UInt64(bytes.load(fromByteOffset: i, as: UInt8.self)) << UInt64(8 * (i - offset)) }
                h = mix(h ^ tail ^ 0xFF)
            }
            return mix(h)
        }
    }

    /// An index entry's key values, kept to compare with the next entry as SQLite orders them:
    /// NULL first, then integers, then text by the column's collation.
    struct EntryKey {
        private var classes: [Int32]
        private var integers: [Int64]
        private var texts: [[UInt8]]

        init(count: Int) {
            classes = Array(repeating: SQLITE_NULL, count: count)
            integers = Array(repeating: 0, count: count)
            texts = Array(repeating: [], count: count)
        }

        /// Whether a key value is NULL (a UNIQUE index may repeat such keys).
        var hasNull: Bool { classes.contains(SQLITE_NULL) }

        /// Keeps column `i` of the row `handle` is on as key value `k`, and returns its hash
        /// (`ValueHash`); nil for a REAL or a BLOB.
        mutating func read(_ handle: OpaquePointer?, _ i: Int32, into k: Int) -> UInt64? {
            let type = sqlite3_column_type(handle, i)
            classes[k] = type
            switch type {
            case SQLITE_NULL: return ValueHash.null
            case SQLITE_INTEGER:
                let value = sqlite3_column_int64(handle, i)
                integers[k] = value
                return ValueHash.integer(value)
            case SQLITE_TEXT:
                let bytes = sqlite3_column_text(handle, i)
                let count = Int(sqlite3_column_bytes(handle, i))
                texts[k].removeAll(keepingCapacity: true)
                if let bytes { texts[k].append(contentsOf: UnsafeBufferPointer(start: bytes, count: count)) }
                return ValueHash.text(UnsafeRawPointer(bytes), count: count)
            default: return nil
            }
        }

        /// The order of key value `k` of this entry against that of `other`: negative, zero or positive.
        func compare(_ k: Int, with other: borrowing EntryKey, collation: Collation) -> Int {
            let a = classes[k], b = other.classes[k]
            if a != b { return Self.rank(a) < Self.rank(b) ? -1 : 1 }
            switch a {
            case SQLITE_INTEGER: return integers[k] < other.integers[k] ? -1 : integers[k] == other.integers[k] ? 0 : 1
            case SQLITE_TEXT: return Self.compare(texts[k], other.texts[k], collation)
            default: return 0
            }
        }

        private static func rank(_ storageClass: Int32) -> Int {
            switch storageClass {
            case SQLITE_NULL: 0
            case SQLITE_INTEGER, SQLITE_FLOAT: 1
            case SQLITE_TEXT: 2
            default: 3
            }
        }

        /// Two texts compared as SQLite's built-in collations compare them.
        static func compare(_ a: [UInt8], _ b: [UInt8], _ collation: Collation) -> Int {
            switch collation {
            case .binary: return binary(a[...], b[...])
            case .rtrim:
                func trimmed(_ s: [UInt8]) -> ArraySlice<UInt8> {
                    var end = s.count
                    while end > 0, s[end - 1] == 0x20 { end -= 1 }
                    return s[..<end]
                }
                return binary(trimmed(a), trimmed(b))
            case .nocase:
                // sqlite3StrNICmp over the shorter length (it stops at a NUL of the first text),
                // then the lengths; only ASCII letters fold.
                let n = min(a.count, b.count)
                var i = 0
                while i < n {
                    let x = lower(a[i]), y = lower(b[i])
                    if a[i] == 0 || x != y {
                        let r = Int(x) - Int(y)
                        return r != 0 ? r : a.count - b.count
                    }
                    i += 1
                }
                return a.count - b.count
            }
        }

        private static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }

        private static func binary(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Int {
            for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
            return a.count - b.count
        }
    }
}
