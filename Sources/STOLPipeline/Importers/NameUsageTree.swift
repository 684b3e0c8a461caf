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

    static func status(_ text: String, hasAcceptedPointer: Bool) -> Status {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "_", with: " ")
        switch t {
        case "accepted", "valid", "accepted name", "valid name": return .accepted
        case "doubtful", "provisionally accepted", "provisional", "provisionally accepted name", "unresolved", "uncertain": return .doubtful
        case "misapplied", "misapplied name": return .misapplied
        default:
            if t.contains("synonym") || t == "invalid" || t == "junior synonym" { return .synonym }
            return hasAcceptedPointer ? .synonym : .accepted
        }
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

    func build(_ rows: [NameUsageRow], vernaculars: [VernacularRow], result: inout ImportResult) -> ChecklistCounts {
        var counts = ChecklistCounts()
        // 1. Index by id; a repeated id is reported and its later rows skipped.
        var byID: [String: Int] = [:]
        var usable = [Bool](repeating: true, count: rows.count)
        for (i, row) in rows.enumerated() {
            guard !row.id.isEmpty else { continue }
            if let first = byID[row.id] {
                result.skipped.append(SourceIssue("duplicate id \(row.id) (first at \(rows[first].location)); row skipped", at: row.location))
                usable[i] = false
                continue
            }
            byID[row.id] = i
        }
        let useClassification = !rows.contains { !$0.parentID.isEmpty && Self.status($0.status, hasAcceptedPointer: !$0.acceptedID.isEmpty && $0.acceptedID != $0.id) != .synonym }

        // 2. Classify rows.
        enum Kind { case taxon(Rank?), folded, below, synonym(misapplied: Bool), unusable }
        var kinds = [Kind](repeating: .unusable, count: rows.count)
        var names = [String](repeating: "", count: rows.count)
        for (i, row) in rows.enumerated() where usable[i] {
            let name = Self.name(of: row)
            guard !name.isEmpty else {
                result.skipped.append(SourceIssue("no scientific name, genus or epithet; row skipped", at: row.location))
                continue
            }
            names[i] = name
            let pointsElsewhere = !row.acceptedID.isEmpty && row.acceptedID != row.id
            switch Self.status(row.status, hasAcceptedPointer: pointsElsewhere) {
            case .synonym: kinds[i] = .synonym(misapplied: false)
            case .misapplied: kinds[i] = .synonym(misapplied: true)
            case .accepted, .doubtful:
                switch Self.folding(of: row) {
                case .kept(let rank): kinds[i] = .taxon(rank)
                case .unranked: kinds[i] = .taxon(nil)
                case .folded: kinds[i] = .folded
                case .belowSpecies: kinds[i] = .below
                }
            }
        }

        // 3. Nearest kept ancestor of each row through folded rows; below-species rows poison
        //    their descendants.
        enum Up { case unknown, root, parent(Int), below, missing(String), cycle }
        var up = [Up](repeating: .unknown, count: rows.count)
        func resolve(_ start: Int) -> Up {
            var path: [Int] = []
            var onPath = Set<Int>()
            var node = start
            var verdict: Up
            while true {
                let parentID = rows[node].parentID
                if parentID.isEmpty || parentID == rows[node].id { verdict = .root; break }
                guard let p = byID[parentID], usable[p] else { verdict = .missing(parentID); break }
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
                        result.skipped.append(SourceIssue("\(names[i]): its parents through folded ranks form a cycle; row skipped", at: row.location))
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
                if Self.status(row.status, hasAcceptedPointer: false) == .doubtful { taxon.status = .doubtful }
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

        // 5. Synonyms onto their accepted taxon (following a chain of synonyms a few steps).
        func acceptedTaxon(of id: String, from location: SourceLocation, what: String) -> Int?? {
            var current = id
            for _ in 0..<8 {
                guard let j = byID[current], usable[j] else {
                    result.skipped.append(SourceIssue("\(what) points at id \(current), which is not in the table; skipped", at: location))
                    return .some(nil)
                }
                switch kinds[j] {
                case .taxon: return taxonIndex[j] >= 0 ? .some(taxonIndex[j]) : .some(nil)
                case .below, .folded: return nil  // left out by design, not an error
                case .unusable: return .some(nil)
                case .synonym:
                    let next = rows[j].acceptedID.isEmpty ? rows[j].parentID : rows[j].acceptedID
                    guard !next.isEmpty, next != current else {
                        result.skipped.append(SourceIssue("\(what) points at id \(current), a synonym with no accepted name; skipped", at: location))
                        return .some(nil)
                    }
                    current = next
                }
            }
            result.skipped.append(SourceIssue("\(what): synonyms point at each other in a loop; skipped", at: location))
            return .some(nil)
        }
        for (i, row) in rows.enumerated() {
            guard case .synonym(let misapplied) = kinds[i] else { continue }
            let target = row.acceptedID.isEmpty || row.acceptedID == row.id ? row.parentID : row.acceptedID
            guard !target.isEmpty else {
                result.skipped.append(SourceIssue("synonym \(names[i]) names no accepted name; skipped", at: row.location))
                continue
            }
            switch acceptedTaxon(of: target, from: row.location, what: "synonym \(names[i])") {
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
            switch acceptedTaxon(of: v.taxonID, from: v.location, what: "common name '\(name)'") {
            case .none, .some(.none): continue
            case .some(.some(let t)):
                let lang = LanguageTag.bcp47(v.language)
                var preferred = false
                if v.isPreferred { preferred = preferredTaken.insert("\(t)|\(lang)").inserted }
                result.taxa[t].names.append(SourceName(name, lang: lang, type: .common, isPreferred: preferred))
                counts.commonNames += 1
            }
        }
        return counts
    }
}
