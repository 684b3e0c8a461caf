import Foundation
import GRDB

/// How well known a taxon is: a value from 0 to 1 computed from what its sources give, stored in
/// thousandths in `taxon_prominence` (part of the `searchRanking` extension; taxa at 0 have no
/// row), by build-db and, for databases with only the specification's tables, at import.
///
/// Inputs, each from the database's own tables:
/// - `languages`: how many languages name it (common, vernacular and trade names; primary
///   language subtags), up to 5;
/// - `names`: how many such names it has, up to 15;
/// - `description`: the length of its longest description in the engine's `descriptions` table,
///   when the database has one (Wikipedia intros for NCBI; the dataset's own texts), up to 1,000
///   characters;
/// - `domestic`: a `domestic` (or `domesticated`) trait of `yes`, `true` or `1` (the Mammal
///   Diversity Database's `domestic` column), or an English name that starts with "domestic"
///   ("domestic cat", as NCBI names them);
/// - `members`: for a higher taxon, the sum of its descendants' own values (how many well-known
///   members it has).
///
/// own = 0.35 · languages / 5 + 0.15 · log₂(1 + names) / 4 + 0.30 · description + 0.20 · domestic,
/// where description is 0 without one, else 0.3 + 0.7 · length / 1,000; members =
/// log₂(1 + sum of the descendants' own) / 5, at most 1; prominence = max(own, members), halved
/// for a taxon that is not accepted.
///
/// Viruses (a taxon named `Viruses` and everything below it, and names with a word ending in
/// `virus`, `viridae`, `virales`, `viroid` or `phage`), hybrids (` x ` or `×` in the scientific
/// name) and unclassified or environmental samples (`unclassified`, `uncultured`, `unidentified`,
/// `environmental`, `metagenome`, `sp.`, `cf.`, `aff.`, `endosymbiont`) get −1: search puts them
/// below organisms (`SearchScore`).
public enum Prominence {
    /// The value stored for viruses, hybrids and samples, in thousandths.
    public static let demoted = -1000

    /// Fills `taxon_prominence` of schema `main` from `source`'s taxa, names, traits and (if it
    /// has one) descriptions.
    static func fill(_ db: Database, source: String) throws {
        var ids: [Int64] = [], parentIDs: [Int64?] = [], demoted: [Bool] = [], accepted: [Bool] = []
        // Whether the taxon is named Viruses or lies below one.
        var underViruses: [Bool] = []
        do {
            let rows = try Row.fetchCursor(db, sql: "SELECT CAST(id AS INTEGER), CAST(parent_id AS INTEGER), CAST(scientific_name AS TEXT), CAST(status AS TEXT) FROM \(source).taxa ORDER BY id")
            while let row = try rows.next() {
                ids.append(row[0])
                parentIDs.append(row[1])
                let name: String = row[2] ?? ""
                demoted.append(isDemoted(name))
                underViruses.append(name == "Viruses")
                accepted.append((row[3] as String?) == "accepted")
            }
        }
        let n = ids.count
        guard n > 0 else { return }
        func index(_ id: Int64) -> Int? {
            var low = 0, high = n
            while low < high {
                let mid = (low + high) / 2
                if ids[mid] < id { low = mid + 1 } else { high = mid }
            }
            return low < n && ids[low] == id ? low : nil
        }
        let parent = parentIDs.map { $0.flatMap(index) ?? -1 }

        var languages = [Set<String>](repeating: [], count: n), names = [Int](repeating: 0, count: n)
        var domestic = [Bool](repeating: false, count: n), description = [Int](repeating: 0, count: n)
        do {
            let rows = try Row.fetchCursor(db, sql: "SELECT CAST(taxon_id AS INTEGER), CAST(lang AS TEXT), CAST(name AS TEXT) FROM \(source).names WHERE name_type != 'synonym'")
            while let row = try rows.next() {
                guard let i = index(row[0]) else { continue }
                let lang = Inflection.primary(row[1] as String?) ?? ""
                languages[i].insert(lang)
                names[i] += 1
                if lang == "en", let name = row[2] as String?, name.lowercased().hasPrefix("domestic") { domestic[i] = true }
            }
        }
        if try db.tableExists("traits", in: source) {
            let rows = try Int64.fetchCursor(db, sql: """
                SELECT CAST(taxon_id AS INTEGER) FROM \(source).traits
                WHERE lower(trait_key) IN ('domestic', 'domesticated') AND lower(trait_value) IN ('yes', 'true', '1')
                """)
            while let id = try rows.next() { if let i = index(id) { domestic[i] = true } }
        }
        if try db.tableExists("descriptions", in: source) {
            let rows = try Row.fetchCursor(db, sql: "SELECT CAST(taxon_id AS INTEGER), max(length(text)) FROM \(source).descriptions GROUP BY taxon_id")
            while let row = try rows.next() { if let i = index(row[0]) { description[i] = row[1] ?? 0 } }
        }

        // Depths, so that descendants are summed before their ancestors and viruses inherited downwards.
        var depth = [Int32](repeating: -1, count: n)
        for start in 0..<n where depth[start] < 0 {
            var path: [Int] = []
            var i = start
            while i >= 0, depth[i] < 0, path.count <= n {
                path.append(i)
                depth[i] = -2  // on the path: a cycle stops here
                i = parent[i]
            }
            var d: Int32 = i >= 0 && depth[i] >= 0 ? depth[i] + 1 : 0
            for j in path.reversed() {
                depth[j] = d
                d += 1
            }
        }
        // Nodes by depth, bucketed (depths are small).
        var byDepth: [[Int32]] = []
        for i in 0..<n {
            let d = Int(max(depth[i], 0))
            if d >= byDepth.count { byDepth += Array(repeating: [], count: d + 1 - byDepth.count) }
            byDepth[d].append(Int32(i))
        }
        let topDown = byDepth.joined().map(Int.init)
        // Below a taxon named Viruses everything is a virus; other demotions are not inherited.
        for i in topDown where parent[i] >= 0 && underViruses[parent[i]] { underViruses[i] = true }
        var own = [Double](repeating: 0, count: n), below = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let lang = Double(min(languages[i].count, 5)) / 5
            let nameCount = log2(1 + Double(min(names[i], 15))) / 4
            let text = description[i] > 0 ? 0.3 + 0.7 * Double(min(description[i], 1_000)) / 1_000 : 0
            own[i] = 0.35 * lang + 0.15 * nameCount + 0.30 * text + 0.20 * (domestic[i] ? 1 : 0)
        }
        for i in topDown.reversed() where parent[i] >= 0 {
            below[parent[i]] += below[i] + own[i]
        }
        var insert = try BatchedInsert(db, into: "taxon_prominence", columns: ["taxon_id", "prominence"])
        for i in 0..<n {
            var value: Int
            if demoted[i] || underViruses[i] {
                value = Self.demoted
            } else {
                var p = max(own[i], min(1, log2(1 + below[i]) / 5))
                if !accepted[i] { p /= 2 }
                value = Int((p * 1_000).rounded())
            }
            if value != 0 { try insert.append(.int(ids[i]), .int(Int64(value))) }
        }
        try insert.finish()
    }

    /// Whether a scientific name is a virus's, a hybrid's or a sample's (see the type's documentation).
    public static func isDemoted(_ scientificName: String) -> Bool {
        // Most names hold none of the marks' beginnings: a scan of their bytes decides them.
        let bytes = Array(scientificName.utf8)
        guard quickMarks.contains(where: { holds(bytes, $0) }) else { return false }
        let lower = scientificName.lowercased()
        if lower.contains(" x ") || lower.contains("×") { return true }
        for word in lower.split(whereSeparator: { !($0.isLetter || $0 == ".") }) {
            if ["unclassified", "uncultured", "unidentified", "environmental", "metagenome", "sp.", "cf.", "aff.", "endosymbiont"].contains(word) { return true }
            if ["virus", "viridae", "virales", "viroid", "phage", "viruses"].contains(where: { word.hasSuffix($0) }) { return true }
        }
        return false
    }

    /// What every mark begins with, as bytes (`isDemoted`).
    static let quickMarks: [[UInt8]] = ["vir", "phage", " x ", "×", "uncl", "uncu", "unid", "envi", "metag", "sp.", "cf.", "aff.", "endosym"].map { Array($0.utf8) }

    /// Whether `bytes` hold `needle`, ASCII letters compared without case.
    static func holds(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) {
            var i = 0
            while i < needle.count {
                var b = bytes[start + i]
                if b >= 0x41, b <= 0x5A { b += 32 }
                if b != needle[i] { break }
                i += 1
            }
            if i == needle.count { return true }
        }
        return false
    }
}
