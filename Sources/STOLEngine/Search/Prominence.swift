import Foundation
import GRDB
import STOLProtocol

/// How well known a taxon is: a value from 0 to 1 computed from what its sources give, stored in
/// thousandths in `taxon_prominence` (part of the `searchRanking` extension; taxa at 0 have no
/// row), by build-db and, for databases with only the specification's tables, at import.
///
/// Inputs, each from the database's own tables:
/// - `languages`: how many languages name it (common, vernacular and trade names; primary
///   language subtags), up to 5;
/// - `names`: how many such names it has, from every source merged into the database (NCBI's own,
///   the Mammal Diversity Database's, AviList's …), up to 15;
/// - `description`: the length of its longest description in the engine's `descriptions` table,
///   when the database has one (Wikipedia intros for NCBI; the dataset's own texts), up to 1,000
///   characters;
/// - `forms`: how many taxa directly below it (subspecies, varieties) have a common name of their
///   own, up to 3: people name the forms of the organisms they know (the dog and the dingo of
///   *Canis lupus*, the cabbage and the broccoli of *Brassica oleracea*);
/// - `domestic`: a `domestic` (or `domesticated`) trait of `yes`, `true` or `1` (the Mammal
///   Diversity Database's `domestic` column), an English name that starts with "domestic"
///   ("domestic cat", as NCBI and MDD name them), or, for a species or a form below one, a
///   description that says the organism is or was domesticated (`saysDomesticated`; the
///   descriptions are read at build time only, and the text stays where it is);
/// - `bundled`: a species (or a form below one) that the engine's bundled database describes
///   (`BundledSpecies`): the organisms an encyclopedia for children chose, from the lion to the
///   button mushroom; left out where at least half the organisms are bundled (the bundled
///   database itself), as it would tell none apart;
/// - `members`: for a taxon with descendants, the best-known of them and how many are known.
///
/// own = 0.35 · languages / 5 + 0.15 · log₂(1 + names) / 4 + 0.30 · description + 0.10 · forms / 3,
/// where description is 0 without one, else 0.3 + 0.7 · length / 1,000; a domesticated organism
/// is among the best known whatever its sources say (many lack a description: the dog, cattle):
/// own becomes 0.7 + 0.3 · own, or 0.5 + 0.5 · own when only its description says so (a
/// description may speak of a farmed or cultivated form: the common carp, the cardoon, whose
/// long texts would otherwise put them before the domestic cat); a bundled one at least 0.5 + 0.5
/// · own. members = 0.9 · best · (0.75 + 0.25 · min(1, log₂(1 + sum) / 5)),
/// where best and sum are the highest and the sum of the descendants' own values, so that a
/// group ranks below its best-known member; prominence = max(own, members), halved for a taxon
/// that is not accepted. Search ranks a group below the best-known of its members the query also
/// finds (`GroupRanking`).
///
/// Viruses (a taxon named `Viruses` and everything below it, and names with a word ending in
/// `virus`, `viridae`, `virales`, `viroid` or `phage`, and the phytoplasmas named after the
/// diseases they cause, `Coconut lethal yellowing phytoplasma`), hybrids (` x ` or `×` in the scientific
/// name) and unclassified or environmental samples (`unclassified`, `uncultured`, `unidentified`,
/// `environmental`, `metagenome`, `sp.`, `cf.`, `aff.`, `endosymbiont`, or a scientific name
/// starting with a lower-case letter: NCBI's informal names such as `catfish`, `salmonid fish`,
/// `halophilic archaeon`) get −1: search puts them below organisms (`SearchScore`).
public enum Prominence {
    /// The value stored for viruses, hybrids and samples, in thousandths.
    public static let demoted = -1000

    /// What is known of one taxon while the values are computed.
    private struct Inputs {
        var languages: Set<String> = []
        var names = 0
        var description = 0
        var forms = 0
        var domestic = false
        /// Domesticated by its description alone (`saysDomesticated`), not by a name or a trait.
        var described = false
        var bundled = false

        var own: Double {
            let lang = Double(min(languages.count, 5)) / 5
            let nameCount = log2(1 + Double(min(names, 15))) / 4
            let text = description > 0 ? 0.3 + 0.7 * Double(min(description, 1_000)) / 1_000 : 0
            let value = 0.35 * lang + 0.15 * nameCount + 0.30 * text + 0.10 * Double(min(forms, 3)) / 3
            let domesticated = domestic ? 0.7 + 0.3 * value : described ? 0.5 + 0.5 * value : value
            return max(domesticated, bundled ? 0.5 + 0.5 * value : value)
        }
    }

    /// Fills `taxon_prominence` of schema `main` from `source`'s taxa, names, traits and (if it
    /// has one) descriptions, each read as the schema declares it (`StoredRow`).
    static func fill(_ db: Database, source: String, bundled: Set<String> = BundledSpecies.names) throws {
        var ids: [Int64] = [], parentIDs: [Int64?] = [], demoted: [Bool] = [], accepted: [Bool] = [], belowSpecies: [Bool] = [], organism: [Bool] = []
        // Whether the taxon is named Viruses or lies below one.
        var underViruses: [Bool] = []
        // Organisms the bundled encyclopedia describes, and how many organisms there are.
        var inBundle: [Bool] = [], organisms = 0
        try db.makeStatement(sql: "SELECT id, parent_id, scientific_name, status, rank FROM \(source).taxa ORDER BY id")
            .forEachStoredRow(rowids: [("taxa", 0)]) { row in
                ids.append(try row.taxonID(0, "taxa.id"))
                parentIDs.append(try row.taxonIDOrNull(1, "taxa.parent_id"))
                let name = try row.text(2, "taxa.scientific_name")
                demoted.append(isDemoted(name))
                underViruses.append(name == "Viruses")
                accepted.append(try row.member(TaxonStatus.self, 3, "taxa.status") == .accepted)
                let rank = try row.memberOrNull(Rank.self, 4, "taxa.rank")
                belowSpecies.append(rank?.isBelowSpecies ?? false)
                organism.append(rank?.isSpeciesOrBelow ?? false)
                if rank?.isSpeciesOrBelow ?? false { organisms += 1 }
                inBundle.append((rank?.isSpeciesOrBelow ?? false) && bundled.contains(name))
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

        var inputs = [Inputs](repeating: Inputs(), count: n)
        // An input every organism has tells none apart: the bundled database itself, or one built
        // from the same few organisms, does without it.
        if inBundle.count(where: { $0 }) * 2 < organisms {
            for i in 0..<n where inBundle[i] { inputs[i].bundled = true }
        }
        try db.makeStatement(sql: "SELECT taxon_id, lang, name, id FROM \(source).names WHERE name_type != 'synonym'")
            .forEachStoredRow(rowids: [("names", 3)]) { row in
                guard let i = index(try row.taxonID(0, "names.taxon_id")) else { return }
                let lang = Inflection.primary(try row.textOrNull(1, "names.lang")) ?? ""
                inputs[i].languages.insert(lang)
                inputs[i].names += 1
                if lang == "en", try row.text(2, "names.name").lowercased().hasPrefix("domestic") { inputs[i].domestic = true }
            }
        // Forms below a taxon that people name.
        for i in 0..<n where belowSpecies[i] && inputs[i].names > 0 && parent[i] >= 0 { inputs[parent[i]].forms += 1 }
        if try db.tableExists("traits", in: source) {
            try db.makeStatement(sql: """
                SELECT taxon_id, rowid FROM \(source).traits
                WHERE lower(trait_key) IN ('domestic', 'domesticated') AND lower(trait_value) IN ('yes', 'true', '1')
                """).forEachStoredRow(rowids: [("traits", 1)]) { row in
                    if let i = index(try row.taxonID(0, "traits.taxon_id")) { inputs[i].domestic = true }
                }
        }
        if try db.tableExists("descriptions", in: source) {
            try db.makeStatement(sql: "SELECT taxon_id, max(length(text)) FROM \(source).descriptions GROUP BY taxon_id")
                .forEachStoredRow { row in
                    if let i = index(try row.taxonID(0, "descriptions.taxon_id")) { inputs[i].description = Int(clamping: try row.integerOrNull(1, "descriptions.text") ?? 0) }
                }
            try db.makeStatement(sql: "SELECT taxon_id, text FROM \(source).descriptions WHERE text LIKE '%domesticated%'")
                .forEachStoredRow { row in
                    if let i = index(try row.taxonID(0, "descriptions.taxon_id")), organism[i], saysDomesticated(try row.text(1, "descriptions.text")) {
                        inputs[i].described = true
                    }
                }
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
        let own = inputs.map(\.own)
        // The best and the sum of the descendants' own values.
        var best = [Double](repeating: 0, count: n), sum = [Double](repeating: 0, count: n)
        for i in topDown.reversed() where parent[i] >= 0 {
            sum[parent[i]] += sum[i] + own[i]
            best[parent[i]] = max(best[parent[i]], best[i], own[i])
        }
        var insert = try BatchedInsert(db, into: "taxon_prominence", columns: ["taxon_id", "prominence"])
        for i in 0..<n {
            var value: Int
            if demoted[i] || underViruses[i] {
                value = Self.demoted
            } else {
                let members = 0.9 * best[i] * (0.75 + 0.25 * min(1, log2(1 + sum[i]) / 5))
                var p = min(1, max(own[i], members))
                if !accepted[i] { p /= 2 }
                value = Int((p * 1_000).rounded())
            }
            if value != 0 { try insert.append(.int(ids[i]), .int(Int64(value))) }
        }
        try insert.finish()
    }

    /// Whether a description says that the organism it describes is or was domesticated: a form
    /// of *to be* before "domesticated", with at most adverbs between (`was first domesticated`,
    /// `has been domesticated`), or before an article and up to two words (`is a domesticated South
    /// American camelid`, `was one of the first domesticated insects`), not negated (`has never
    /// been domesticated`), in its first three sentences, which speak of the organism itself (a
    /// later one may speak of a relative: "The pet known as the Belgian hare is a domesticated
    /// European rabbit"). Only species and the forms below them are judged so: a group's
    /// description that says domesticated speaks of some of its members. Descriptions are read for
    /// it at build time only.
    public static func saysDomesticated(_ text: String) -> Bool {
        var end = text.endIndex, sentences = 0, from = text.startIndex
        while sentences < 3, let stop = text.range(of: ". ", range: from..<text.endIndex) {
            sentences += 1
            end = stop.lowerBound
            from = stop.upperBound
        }
        if sentences < 3 { end = text.endIndex }
        let text = String(text[..<end])
        let range = NSRange(text.startIndex..., in: text)
        for match in domesticatedPattern.matches(in: text, range: range) {
            guard let found = Range(match.range, in: text) else { continue }
            let before = text[..<found.lowerBound].split(whereSeparator: { !$0.isLetter }).last?.lowercased()
            if before != "not", before != "never" { return true }
        }
        return false
    }

    /// `saysDomesticated`'s pattern.
    static let domesticatedPattern = try! NSRegularExpression(
        pattern: #"\b(?:is|are|was|were|been|being)\s+(?:(?:first|fully|widely|globally|successfully|also|originally|independently|likely|probably|later|long)\s+)*domesticated\b"#
            + #"|\b(?:is|are|was|were)\s+(?:a|an|the|one\s+of\s+the)\s+(?:[a-z-]+\s+){0,2}domesticated\b"#,
        options: [.caseInsensitive])

    /// Whether a scientific name is a virus's, a hybrid's or a sample's (see the type's documentation).
    public static func isDemoted(_ scientificName: String) -> Bool {
        // A Linnaean name starts with a capital: NCBI's informal names do not (`catfish`).
        if let first = scientificName.unicodeScalars.first, first.properties.isLowercase { return true }
        // Most names hold none of the marks' beginnings: a scan of their bytes decides them.
        let bytes = Array(scientificName.utf8)
        guard quickMarks.contains(where: { holds(bytes, $0) }) else { return false }
        let lower = scientificName.lowercased()
        if lower.contains(" x ") || lower.contains("×") { return true }
        for word in lower.split(whereSeparator: { !($0.isLetter || $0 == ".") }) {
            if ["unclassified", "uncultured", "unidentified", "environmental", "metagenome", "sp.", "cf.", "aff.", "endosymbiont"].contains(word) { return true }
            if ["virus", "viridae", "virales", "viroid", "phage", "viruses", "phytoplasma"].contains(where: { word.hasSuffix($0) }) { return true }
        }
        return false
    }

    /// What every mark begins with, as bytes (`isDemoted`).
    static let quickMarks: [[UInt8]] = ["vir", "phage", "phytoplasma", " x ", "×", "uncl", "uncu", "unid", "envi", "metag", "sp.", "cf.", "aff.", "endosym"].map { Array($0.utf8) }

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
