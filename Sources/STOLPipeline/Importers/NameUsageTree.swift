import Foundation
import STOLEngine
import STOLProtocol

/// One row of a checklist's name-usage table, whatever the format (Darwin Core Taxon, ColDP
/// NameUsage or Name + Taxon + Synonym). Empty strings mean absent.
struct NameUsageRow {
    var id = ""
    /// The parent of an accepted name.
    var parentID = ""
    /// The accepted name of a synonym.
    var acceptedID = ""
    var status = ""
    var rank = ""
    var scientificName = ""
    var authorship = ""
    var genus = ""
    var specificEpithet = ""
    var infraspecificEpithet = ""
    /// Higher taxa named in the row's own columns (kingdom … genus), used when there are no parent ids.
    var classification: [(rank: Rank, name: String)] = []
    var publishedIn = ""
    var location: SourceLocation
}

/// A common name of a row, by the row's id.
struct VernacularRow {
    var taxonID: String
    var name: String
    var language: String
    var isPreferred: Bool
    var location: SourceLocation
}

/// What a checklist archive importer (DwC-A, ColDP) returns: the taxa, and what it counted.
public struct ChecklistOutput: Sendable {
    public var result: ImportResult
    public var counts: ChecklistCounts
}

/// What a checklist importer counted besides the taxa it kept.
public struct ChecklistCounts: Sendable, Equatable {
    /// Accepted names kept as taxa.
    public var taxa = 0
    /// Names of ranks below species (subspecies, varieties, forms...), dropped with what hangs below them.
    public var belowSpecies = 0
    /// Names of intermediate ranks removed, their children re-attached to the nearest kept ancestor.
    public var folded = 0
    /// Higher taxa created from classification columns.
    public var created = 0
    /// Synonyms attached to their accepted taxa (an ambiguous synonym counts once per accepted name).
    public var synonyms = 0
    /// Misapplied names, attached as synonyms.
    public var misapplied = 0
    /// Synonyms of names that were dropped or folded, left out.
    public var synonymsOfDropped = 0
    /// Common names attached.
    public var commonNames = 0
    /// Rows in or leading into a loop of synonyms, kept as accepted because their own status does
    /// not say synonym.
    public var keptFromLoops = 0
    /// Rows of extensions or tables a taxonomy does not use, by row type or file.
    public var skippedTables: [String: Int] = [:]

    public init() {}

    /// One line for `build-db`'s progress output.
    public var summary: String {
        var parts = [
            "\(taxa) taxa", "\(synonyms) synonyms", "\(commonNames) common names", "\(belowSpecies) below species dropped",
            "\(folded) intermediate-rank names folded",
        ]
        if created > 0 { parts.append("\(created) higher taxa created from classification columns") }
        if misapplied > 0 { parts.append("\(misapplied) misapplied names kept as synonyms") }
        if synonymsOfDropped > 0 { parts.append("\(synonymsOfDropped) synonyms of dropped names left out") }
        if keptFromLoops > 0 { parts.append("\(keptFromLoops) rows of synonym loops kept as accepted") }
        for (table, rows) in skippedTables.sorted(by: { $0.key < $1.key }) { parts.append("\(table): \(rows) rows skipped") }
        return parts.joined(separator: ", ")
    }
}

/// Turns name-usage rows into taxa: resolves parents through folded ranks, drops what is below
/// species, attaches synonyms and common names to their accepted taxon, and (for files without
/// parent ids) builds the tree from the classification columns.
struct NameUsageTree {
    /// Prefix of the keys of this source's taxa (`dwca|checklist.zip`), so ids of different
    /// sources never meet.
    var namespace: String

    /// How a row's status reads.
    enum Status {
        case accepted, doubtful, synonym, misapplied
    }

    /// What a row's own status text says, nil when it says nothing the importer knows (empty,
    /// `unaccepted`, …): then the accepted-name pointer decides.
    static func statusClaim(_ text: String) -> Status? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "_", with: " ")
        switch t {
        case "accepted", "valid", "accepted name", "valid name": return .accepted
        case "doubtful", "provisionally accepted", "provisional", "provisionally accepted name", "unresolved", "uncertain": return .doubtful
        case "misapplied", "misapplied name": return .misapplied
        default:
            if t.contains("synonym") || t == "invalid" { return .synonym }
            return nil
        }
    }

    /// A row's status: what its text says, else synonym when it points at another accepted name.
    static func status(_ text: String, hasAcceptedPointer: Bool) -> Status {
        statusClaim(text) ?? (hasAcceptedPointer ? .synonym : .accepted)
    }

    /// The rows' scientific name, built from genus and epithets when the column is empty, and
    /// without the authorship when the column repeats it.
    static func name(of row: NameUsageRow) -> String {
        var name = row.scientificName.trimmingCharacters(in: .whitespaces)
        if name.isEmpty {
            name = [row.genus, row.specificEpithet, row.infraspecificEpithet]
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
        }
        let author = row.authorship.trimmingCharacters(in: .whitespaces)
        if !author.isEmpty, name.hasSuffix(" " + author) { name = String(name.dropLast(author.count + 1)) }
        return name
    }

    /// The rank of a row: its rank column, or else what its epithets show.
    static func folding(of row: NameUsageRow) -> RankFolding {
        let folding = RankFolding(row.rank)
        guard folding == .unranked else { return folding }
        if !row.infraspecificEpithet.trimmingCharacters(in: .whitespaces).isEmpty { return .belowSpecies }
        if !row.specificEpithet.trimmingCharacters(in: .whitespaces).isEmpty { return .kept(.species) }
        return .unranked
    }

    /// The four-digit year in an authorship (`(Linnaeus, 1758)`), if any.
    static func year(in authorship: String) -> Int? {
        var best: Int?
        var digits = 0, value = 0
        for byte in Array(authorship.utf8) + [0x20] {
            if byte >= 0x30, byte <= 0x39 {
                digits += 1
                value = value &* 10 &+ Int(byte - 0x30)
            } else {
                if digits == 4, (1700...2100).contains(value) { best = value }
                digits = 0
                value = 0
            }
        }
        return best
    }

    /// Turns the rows of `table` into taxa in `result`, and `vernaculars` into common names.
    func build(_ table: NameUsageTable, vernaculars: [VernacularRow], result: inout ImportResult) -> ChecklistCounts {
        var counts = ChecklistCounts()
        let rows = table.rows
        let byID = table.index
        let names = rows.map(Self.name)
        let useClassification = !rows.contains { !$0.parentID.isEmpty && Self.status($0.status, hasAcceptedPointer: !$0.acceptedID.isEmpty && $0.acceptedID != $0.id) != .synonym }

        // 1. Classify rows. A row's own status wins over its accepted-name pointer; a row whose
        //    status says nothing is a synonym when it points at another row.
        enum Kind { case taxon(Rank?), folded, below, synonym(misapplied: Bool), unusable }
        func acceptedKind(_ row: NameUsageRow) -> Kind {
            switch Self.folding(of: row) {
            case .kept(let rank): .taxon(rank)
            case .unranked: .taxon(nil)
            case .folded: .folded
            case .belowSpecies: .below
            }
        }
        let claims = rows.map { Self.statusClaim($0.status) }
        var kinds = [Kind](repeating: .unusable, count: rows.count)
        func isSynonym(_ i: Int) -> Bool {
            if case .synonym = kinds[i] { return true }
            return false
        }
        var disagreeing: [Int] = []
        for (i, row) in rows.enumerated() {
            let pointsElsewhere = !row.acceptedID.isEmpty && row.acceptedID != row.id
            switch claims[i] {
            case .synonym: kinds[i] = .synonym(misapplied: false)
            case .misapplied: kinds[i] = .synonym(misapplied: true)
            case .accepted, .doubtful:
                kinds[i] = acceptedKind(row)
                if pointsElsewhere, byID[row.acceptedID] != nil { disagreeing.append(i) }
            case nil:
                kinds[i] = pointsElsewhere ? .synonym(misapplied: false) : acceptedKind(row)
            }
        }
        if let first = disagreeing.first {
            let one = disagreeing.count == 1
            result.skipped.append(SourceIssue(
                "\(disagreeing.count) row\(one ? " has" : "s have") the status accepted but name\(one ? "s" : "") another row as \(one ? "its" : "their") accepted name "
                    + "(the column may hold something else, such as basionyms); kept as accepted, as the status says",
                at: rows[first].location, kind: .statusAgainstPointer, rows: 0))
        }

        // 2. Where each synonym's chain of pointers ends: at a row that is not a synonym, at an id
        //    that is not in the table, at a synonym that names no accepted name, or in a loop. The
        //    rows of a loop, and of a chain that ends in one, whose status does not say synonym
        //    are kept as accepted; each loop is reported once.
        enum End: Equatable { case unknown, row(Int), missing(String), noAccepted(Int), loop(Int) }
        func target(_ i: Int) -> String {
            rows[i].acceptedID.isEmpty || rows[i].acceptedID == rows[i].id ? rows[i].parentID : rows[i].acceptedID
        }
        func follow() -> (ends: [End], loops: [[Int]]) {
            var ends = [End](repeating: .unknown, count: rows.count)
            var loops: [[Int]] = []
            for start in rows.indices where isSynonym(start) && ends[start] == .unknown {
                var path: [Int] = []
                var position: [Int: Int] = [:]
                var node = start
                var end: End
                while true {
                    if ends[node] != .unknown { end = ends[node]; break }
                    guard isSynonym(node) else { end = .row(node); break }
                    position[node] = path.count
                    path.append(node)
                    let next = target(node)
                    guard !next.isEmpty, next != rows[node].id else { end = .noAccepted(node); break }
                    guard let j = byID[next] else { end = .missing(next); break }
                    if let p = position[j] {
                        loops.append(Array(path[p...]))
                        end = .loop(loops.count - 1)
                        break
                    }
                    node = j
                }
                for p in path { ends[p] = end }
            }
            return (ends, loops)
        }
        let firstPass = follow()
        var ends = firstPass.ends
        let loops = firstPass.loops
        var loopOf: [Int: Int] = [:]
        var keptFromLoop = [Int](repeating: 0, count: loops.count)
        var lostToLoop = [Int](repeating: 0, count: loops.count)
        if !loops.isEmpty {
            for (n, loop) in loops.enumerated() {
                for i in loop {
                    loopOf[i] = n
                    if claims[i] == nil {
                        kinds[i] = acceptedKind(rows[i])
                        keptFromLoop[n] += 1
                    }
                }
            }
            var remaining: [[Int]]
            (ends, remaining) = follow()
            // Loops left are of rows whose status says synonym: rows leading into one keep
            // themselves as accepted where their status allows.
            var changed = false
            for i in rows.indices {
                guard case .loop(let k) = ends[i], claims[i] == nil, let n = loopOf[remaining[k][0]] else { continue }
                kinds[i] = acceptedKind(rows[i])
                keptFromLoop[n] += 1
                changed = true
            }
            if changed { (ends, remaining) = follow() }
            for i in rows.indices {
                if case .loop(let k) = ends[i] { ends[i] = .loop(loopOf[remaining[k][0]] ?? 0) }
            }
            counts.keptFromLoops = keptFromLoop.reduce(0, +)
        }

        // 3. Nearest kept ancestor of each row through folded rows; below-species rows poison
        //    their descendants. A row that is its own parent is refused.
        enum Up { case unknown, root, parent(Int), below, missing(String), cycle, ownParent }
        var up = [Up](repeating: .unknown, count: rows.count)
        func resolve(_ start: Int) -> Up {
            var path: [Int] = []
            var onPath = Set<Int>()
            var node = start
            var verdict: Up
            while true {
                let parentID = rows[node].parentID
                if parentID.isEmpty { verdict = .root; break }
                if parentID == rows[node].id { verdict = node == start ? .ownParent : .missing(parentID); break }
                guard let p = byID[parentID] else { verdict = .missing(parentID); break }
                switch kinds[p] {
                case .taxon: verdict = .parent(p)
                case .below: verdict = .below
                case .synonym, .unusable: verdict = .missing(parentID)
                case .folded:
                    if case .unknown = up[p] {
                        if onPath.contains(p) { verdict = .cycle; break }
                        path.append(p)
                        onPath.insert(p)
                        node = p
                        continue
                    }
                    verdict = up[p]
                }
                break
            }
            for p in path { up[p] = verdict }
            return verdict
        }

        // 4. Emit taxa in row order.
        var keyOf = [String](repeating: "", count: rows.count)
        /// Higher taxa by name key, when the tree comes from classification columns.
        var created: [String: Int] = [:]
        func classificationParent(_ row: NameUsageRow, below rank: Rank?) -> String? {
            let kingdom = row.classification.first { $0.rank == .kingdom }?.name
            var parentKey: String?
            for (level, name) in row.classification.sorted(by: { $0.rank < $1.rank }) {
                if let rank, level >= rank { break }
                if rank == nil, level == .genus, name == Self.name(of: row) { break }
                let key = SourceTaxon.key(kingdom: level <= .kingdom ? nil : kingdom, rank: level, name: namespace + "|" + name)
                if created[key] == nil {
                    var taxon = SourceTaxon(key: key, parentKey: parentKey, rank: level, scientificName: name)
                    taxon.origin = row.location
                    created[key] = result.taxa.count
                    result.taxa.append(taxon)
                    counts.created += 1
                }
                parentKey = key
            }
            return parentKey
        }
        var taxonIndex = [Int](repeating: -1, count: rows.count)
        for (i, row) in rows.enumerated() {
            switch kinds[i] {
            case .below: counts.belowSpecies += 1
            case .folded: counts.folded += 1
            case .taxon(let rank):
                var parentKey: String?
                if useClassification {
                    parentKey = classificationParent(row, below: rank)
                } else {
                    switch resolve(i) {
                    case .root, .unknown: parentKey = nil
                    case .parent(let p): parentKey = namespace + "|" + rows[p].id
                    case .below:
                        counts.belowSpecies += 1
                        kinds[i] = .below
                        continue
                    case .missing(let id): parentKey = namespace + "|" + id  // the assembler reports it with this row's location
                    case .cycle:
                        result.skipped.append(SourceIssue("\(names[i]): its parents through folded ranks form a cycle; row skipped", at: row.location, kind: .parentCycle))
                        kinds[i] = .unusable
                        continue
                    case .ownParent:
                        result.skipped.append(SourceIssue("\(names[i]) (id \(row.id)) is its own parent; row skipped", at: row.location, kind: .ownParent))
                        kinds[i] = .unusable
                        continue
                    }
                }
                var key = namespace + "|" + (row.id.isEmpty ? "line \(row.location.line)" : row.id)
                if useClassification, let rank, rank < .species {
                    // Merge with the same higher taxon created from other rows' columns.
                    let kingdom = rank <= .kingdom ? nil : row.classification.first { $0.rank == .kingdom }?.name
                    key = SourceTaxon.key(kingdom: kingdom, rank: rank, name: namespace + "|" + names[i])
                }
                keyOf[i] = key
                var taxon = SourceTaxon(key: key, parentKey: parentKey, rank: rank, scientificName: names[i])
                taxon.origin = row.location
                let author = row.authorship.trimmingCharacters(in: .whitespaces)
                if !author.isEmpty {
                    taxon.author = author
                    taxon.year = Self.year(in: author)
                }
                if claims[i] == .doubtful { taxon.status = .doubtful }
                let citation = row.publishedIn.trimmingCharacters(in: .whitespaces)
                if !citation.isEmpty { taxon.references.append(SourceReference(citation, type: "taxonomy")) }
                if useClassification, let existing = created[key] {
                    // A row naming a higher taxon already created from columns: fill in its details.
                    result.taxa[existing].author = result.taxa[existing].author ?? taxon.author
                    result.taxa[existing].year = result.taxa[existing].year ?? taxon.year
                    result.taxa[existing].references += taxon.references
                    taxonIndex[i] = existing
                    counts.created -= 1
                } else {
                    taxonIndex[i] = result.taxa.count
                    if useClassification, let rank, rank < .species { created[key] = result.taxa.count }
                    result.taxa.append(taxon)
                }
                counts.taxa += 1
            case .synonym, .unusable:
                break
            }
        }

        // 5. Synonyms onto their accepted taxon, through the chains found in step 2.
        /// The taxon that row `j`'s names belong to: `.none` when it was left out by design (below
        /// species, folded), `.some(nil)` when it cannot be told (reported, or counted to its loop).
        func acceptedTaxon(ofRow j: Int, from location: SourceLocation, what: String) -> Int?? {
            var end = End.row(j)
            if isSynonym(j) { end = ends[j] }
            switch end {
            case .row(let k):
                switch kinds[k] {
                case .taxon: return taxonIndex[k] >= 0 ? .some(taxonIndex[k]) : .some(nil)
                case .below, .folded: return nil  // left out by design, not an error
                case .synonym, .unusable: return .some(nil)
                }
            case .missing(let id):
                result.skipped.append(SourceIssue("\(what) points at id \(id), which is not in the table; skipped", at: location, kind: .danglingPointer))
            case .noAccepted(let k):
                let message = k == j ? "\(what) names no accepted name; skipped" : "\(what) points at id \(rows[k].id), a synonym with no accepted name; skipped"
                result.skipped.append(SourceIssue(message, at: location, kind: .danglingPointer))
            case .loop(let n):
                lostToLoop[n] += 1
            case .unknown:
                break
            }
            return .some(nil)
        }
        for (i, row) in rows.enumerated() {
            guard case .synonym(let misapplied) = kinds[i] else { continue }
            switch acceptedTaxon(ofRow: i, from: row.location, what: "synonym \(names[i])") {
            case .none: counts.synonymsOfDropped += 1
            case .some(.none): break
            case .some(.some(let t)):
                result.taxa[t].names.append(SourceName(names[i], lang: "la", type: .synonym))
                if misapplied { counts.misapplied += 1 } else { counts.synonyms += 1 }
            }
        }

        // 6. Common names.
        var preferredTaken: Set<String> = []
        for v in vernaculars {
            let name = v.name.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { continue }
            guard let j = byID[v.taxonID] else {
                result.skipped.append(Self.danglingName(v))
                continue
            }
            switch acceptedTaxon(ofRow: j, from: v.location, what: "common name '\(name)'") {
            case .none, .some(.none): continue
            case .some(.some(let t)):
                let lang = LanguageTag.bcp47(v.language)
                var preferred = false
                if v.isPreferred { preferred = preferredTaken.insert("\(t)|\(lang)").inserted }
                result.taxa[t].names.append(SourceName(name, lang: lang, type: .common, isPreferred: preferred))
                counts.commonNames += 1
            }
        }

        // 7. Each loop, once.
        for (n, loop) in loops.enumerated() {
            let ids = (loop + [loop[0]]).prefix(9).map { rows[$0].id }.joined(separator: " → ") + (loop.count > 8 ? " …" : "")
            var outcome: [String] = []
            if keptFromLoop[n] > 0 { outcome.append("\(keptFromLoop[n]) kept as accepted (their status does not say synonym)") }
            if lostToLoop[n] > 0 { outcome.append("\(lostToLoop[n]) name\(lostToLoop[n] == 1 ? "" : "s") skipped (their status says synonym)") }
            result.skipped.append(SourceIssue(
                "synonyms point at each other in a loop (ids \(ids))" + (outcome.isEmpty ? "" : ": " + outcome.joined(separator: ", ")),
                at: rows[loop[0]].location, kind: .synonymChainBroken, rows: lostToLoop[n]))
        }
        return counts
    }

    /// The issue of a common name whose taxon id is not in the table.
    static func danglingName(_ v: VernacularRow) -> SourceIssue {
        SourceIssue("common name '\(v.name.trimmingCharacters(in: .whitespaces))' points at id \(v.taxonID), which is not in the table; skipped",
                    at: v.location, kind: .danglingPointer)
    }
}
