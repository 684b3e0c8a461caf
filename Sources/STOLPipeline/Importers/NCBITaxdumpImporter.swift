import Foundation
import STOLEngine
import STOLProtocol

/// Reads an NCBI Taxonomy dump directory (`nodes.dmp` and `names.dmp`, each gzip or plain).
///
/// NCBI has some forty ranks; the engine has eight. The tree is folded onto them: a node whose
/// rank is one of domain (`superkingdom` before 2025, `domain` or `acellular root` since), kingdom,
/// phylum, class, order, family, genus or species is kept; any other node (`no rank`, `clade`,
/// `realm`, `cellular root`, `subfamily`, `tribe`, `species group`, ...) is removed and its
/// children hang from its nearest kept ancestor (see `RankFolding`). Below a species, only
/// subspecies and varieties (`varietas`) that have a common name are kept (the dog, *Canis lupus
/// familiaris*, "dog"; the cantaloupe), ranked `subspecies` and `variety`, under their nearest kept
/// ancestor: their species, or a named subspecies. Everything else below a species (strains,
/// serotypes, unnamed subspecies, ...) is dropped. The root (tax id 1, its own parent) is removed,
/// so its kept descendants become roots.
///
/// Placeholder names (`PlaceholderName`: `Bidens sp. 'Lyon'`, `uncultured bacterium`,
/// `environmental samples`, `unclassified …`) are left out by default, like folded nodes: their
/// children, if any are kept, hang from the nearest kept ancestor. The subtrees of `other
/// entries` and `unclassified entries` (vectors, synthetic constructs, metagenomes, some 20,000
/// "species" that would otherwise become roots) are left out whole. Ids and keys are NCBI tax ids
/// (`ncbi|<taxid>`).
public struct NCBITaxdumpImporter {
    /// The taxa, plus what the folding removed.
    public struct Output: Sendable {
        public var result: ImportResult
        /// Nodes of other ranks removed above species (their children re-attached).
        public var foldedNodes: Int
        /// Nodes below a species, dropped.
        public var droppedBelowSpecies: Int
        /// Nodes below a species kept (named subspecies and varieties), by rank.
        public var keptBelowSpecies: [Rank: Int] = [:]
        /// Placeholder names left out that would otherwise have been kept, by kind.
        public var placeholders = PlaceholderCounts()
    }

    public var credit: String
    /// Leave out placeholder names (on by default).
    public var dropPlaceholders: Bool
    /// Lines of `names.dmp` handed over at a time (`namesBatchLines`; tests make it small).
    var batchLines = NCBITaxdumpImporter.namesBatchLines

    public init(credit: String = "NCBI Taxonomy (Schoch et al. 2020, doi:10.1093/database/baaa062), public domain", dropPlaceholders: Bool = true) {
        self.credit = credit
        self.dropPlaceholders = dropPlaceholders
    }

    public func parse(directory: URL) throws -> Output {
        let nodesURL = try Self.locate("nodes.dmp", in: directory)
        let namesURL = try Self.locate("names.dmp", in: directory)
        let nodesFile = nodesURL.lastPathComponent, namesFile = namesURL.lastPathComponent
        var issues = SourceIssues()
        // names.dmp is read on a thread of its own while this one reads nodes.dmp, and handed over
        // in batches.
        let namesReading = NameTableReading(namesURL, dropPlaceholders: dropPlaceholders, batchLines: batchLines)

        // 1. Nodes: tax id, parent tax id, rank level (-1 for ranks that are folded away). Lines
        //    are split into byte ranges; only the rank becomes a string.
        var taxIDs: [Int64] = [], parentIDs: [Int64] = [], levels: [Int8] = [], lines: [Int32] = []
        var indexOf = TaxIDIndex()
        var levelOf: [String: Int8] = [:]  // some fifty distinct ranks
        var ranges: [Range<Int>] = []
        let nodes = try LineReader(url: nodesURL)
        while let line = try nodes.withNextLine({ bytes -> NodeLine in
            Self.fieldRanges(bytes, count: 3, into: &ranges)
            if ranges.isEmpty { return .blank }
            guard ranges.count >= 3, let taxID = Self.integer(bytes, ranges[0]), let parentID = Self.integer(bytes, ranges[1]) else {
                return .malformed
            }
            return .node(taxID: taxID, parentID: parentID, rank: String(decoding: UnsafeBufferPointer(rebasing: bytes[ranges[2]]), as: UTF8.self))
        }) {
            let location = SourceLocation(file: nodesFile, line: nodes.lineNumber)
            guard case .node(let taxID, let parentID, let rank) = line else {
                if case .malformed = line { issues.append(SourceIssue("expected 'tax_id | parent tax_id | rank | ...'; line skipped", at: location)) }
                continue
            }
            guard taxID > 0, taxID <= StableID.maxID else {
                issues.append(SourceIssue("tax id \(taxID) is outside 1…2^52−1; node skipped", at: location))
                continue
            }
            guard indexOf[taxID] == nil else {
                issues.append(SourceIssue("duplicate tax id \(taxID); node skipped", at: location, kind: .duplicateID))
                continue
            }
            indexOf.set(Int32(taxIDs.count), for: taxID)
            taxIDs.append(taxID)
            parentIDs.append(parentID)
            if let level = levelOf[rank] {
                levels.append(level)
            } else {
                let level = Self.level(of: rank)
                levelOf[rank] = level
                levels.append(level)
            }
            lines.append(Int32(clamping: nodes.lineNumber))
        }

        // 2. The tree, which needs no names, while names.dmp is still being read: each node's
        //    parent, its nodes from the top down, cycles, and what lies below a species.
        let n = taxIDs.count
        let speciesLevel = Int8(Rank.species.level)
        let tree = NodeTree(taxIDs: taxIDs, parentIDs: parentIDs, levels: levels, indexOf: indexOf, speciesLevel: speciesLevel)
        let cycleIssues = tree.cycles.map { node in
            SourceIssue("tax id \(taxIDs[Int(node)]) is on a parent cycle; its nodes are skipped", at: SourceLocation(file: nodesFile, line: Int(lines[Int(node)])), kind: .parentCycle)
        }

        // 3. Names, batch by batch as they are read: the scientific name of every node
        //    (placeholders are found by name, before folding), and the other names of each node.
        //    Of a folded node only whether it roots `other entries` matters.
        var scientific = [String](repeating: "", count: n)
        var placeholder = [PlaceholderName?](repeating: nil, count: n)
        var otherNames: [Int32: [SourceName]] = [:]
        while let table = try namesReading.next() {
            issues += table.issues
            for name in table.scientific {
                guard let i = indexOf[name.taxID].map(Int.init) else { continue }
                if levels[i] < 0 {
                    scientific[i] = ""
                    placeholder[i] = name.placeholder == .sequences ? .sequences : nil
                } else {
                    scientific[i] = name.name
                    placeholder[i] = name.placeholder
                }
            }
            for (taxID, name) in table.others {
                guard let i = indexOf[taxID] else { continue }
                otherNames[i, default: []].append(name)
            }
        }
        issues += cycleIssues

        // 4. Fold, from the top down: whether each node is kept, the key of its nearest kept
        //    ancestor (0: none; a tax id missing from the dump is kept as is so that the assembler
        //    reports it) and that ancestor's rank level, and whether it is under "other entries" or
        //    "unclassified entries" (vectors, synthetic constructs, metagenomes: no organisms, so the
        //    whole subtree goes). Below a species, a subspecies or variety is kept when it has a
        //    common name and its nearest kept ancestor is its species or a kept subspecies.
        var upKey = tree.missingParentKey
        var upLevel = [Int8](repeating: -1, count: n)
        var underSequences = [Bool](repeating: false, count: n)
        var kept = [Bool](repeating: false, count: n)
        func keeps(_ i: Int) -> Bool {
            guard !tree.onCycle[i], !underSequences[i], levels[i] >= 0, placeholder[i] == nil else { return false }
            guard tree.belowSpecies[i] else { return levels[i] <= speciesLevel }
            return levels[i] > speciesLevel && upLevel[i] >= speciesLevel
                && otherNames[Int32(i)]?.contains(where: { $0.type == .common }) == true
        }
        for i in 0..<n where tree.parent[i] < 0 { kept[i] = keeps(i) }
        for node in tree.topDown {
            let i = Int(node), parent = Int(tree.parent[i])
            upKey[i] = kept[parent] ? taxIDs[parent] : upKey[parent]
            upLevel[i] = kept[parent] ? levels[parent] : upLevel[parent]
            underSequences[i] = underSequences[parent] || placeholder[parent] == .sequences
            kept[i] = keeps(i)
        }

        // 5. Emit the kept nodes in file order, with their names: first which, then the taxa.
        var keptNodes: [Int32] = []
        var folded = 0, dropped = 0
        var keptBelow: [Rank: Int] = [:]
        var placeholders = PlaceholderCounts()
        let ranks = Rank.allCases
        for i in 0..<n {
            if tree.onCycle[i] { continue }
            if kept[i] {
                keptNodes.append(Int32(i))
                if tree.belowSpecies[i] { keptBelow[ranks[Int(levels[i])], default: 0] += 1 }
                continue
            }
            if tree.belowSpecies[i] { dropped += 1; continue }
            if underSequences[i] {
                if levels[i] >= 0 { placeholders.byKind[.sequences, default: 0] += 1 }
                continue
            }
            if levels[i] < 0 || levels[i] > speciesLevel {
                if parentIDs[i] != taxIDs[i] { folded += 1 }
                continue
            }
            if let kind = placeholder[i] { placeholders.byKind[kind, default: 0] += 1 }
        }
        // On two threads: most of the time goes into filling fresh memory.
        var result = ImportResult()
        result.taxa = [SourceTaxon](count: keptNodes.count) { k in
            let i = Int(keptNodes[k])
            var taxon = SourceTaxon(
                key: Self.key(taxIDs[i]), parentKey: upKey[i] == 0 ? nil : Self.key(upKey[i]), rank: ranks[Int(levels[i])],
                scientificName: scientific[i].isEmpty ? "NCBI taxon \(taxIDs[i])" : scientific[i])
            taxon.fixedID = taxIDs[i]
            taxon.origin = SourceLocation(file: nodesFile, line: Int(lines[i]))
            if let others = otherNames[keptNodes[k]] { taxon.names = others }
            return taxon
        }
        for (k, node) in keptNodes.enumerated() where scientific[Int(node)].isEmpty {
            issues.append(SourceIssue("tax id \(taxIDs[Int(node)]) has no scientific name in \(namesFile)", at: result.taxa[k].origin, kind: .noName, rows: 0))
        }
        result.skipped = issues
        result.rowsRead = nodes.lineNumber
        result.sourceFiles = [nodesFile, namesFile]
        result.credits = [credit]
        return Output(result: result, foldedNodes: folded, droppedBelowSpecies: dropped, keptBelowSpecies: keptBelow, placeholders: placeholders)
    }

    /// The merge key of the node with tax id `taxID`.
    static func key(_ taxID: Int64) -> String { "ncbi|" + String(taxID) }

    /// `name` or `name.gz` in `directory`.
    static func locate(_ name: String, in directory: URL) throws -> URL {
        for candidate in [name, name + ".gz"] {
            let url = directory.appendingPathComponent(candidate)
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        throw SourceIssue("\(name) not found in \(directory.path)", at: nil)
    }

    /// The rank's level (`Rank.level`): one of the eight, or `subspecies` or `variety` (kept below a
    /// species when named); -1 for ranks that are folded away or dropped (`RankFolding`).
    static func level(of rank: String) -> Int8 {
        if case .kept(let kept) = RankFolding(rank) { return Int8(kept.level) }
        if let below = RankFolding.rankBelowSpecies(rank) { return Int8(below.level) }
        return -1
    }

    /// A `nodes.dmp` line, read.
    enum NodeLine {
        case blank, malformed
        case node(taxID: Int64, parentID: Int64, rank: String)
    }

    /// The `names.dmp` name classes the importer reads.
    enum NameClass {
        case scientific, genbankCommon, common, synonym

        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            for (text, kind) in Self.all where text.elementsEqual(bytes) {
                self = kind
                return
            }
            return nil
        }

        static let all: [([UInt8], NameClass)] = [
            (Array("scientific name".utf8), .scientific), (Array("genbank common name".utf8), .genbankCommon),
            (Array("common name".utf8), .common), (Array("synonym".utf8), .synonym),
        ]
    }

    /// The byte ranges of the first `count` fields of a `.dmp` line (`a\t|\tb\t|\tc\t|`), into
    /// `ranges`; none for a blank line.
    static func fieldRanges(_ line: UnsafeBufferPointer<UInt8>, count: Int, into ranges: inout [Range<Int>]) {
        ranges.removeAll(keepingCapacity: true)
        var end = line.count
        while end > 0, line[end - 1] == 0x0D { end -= 1 }
        if end >= 2, line[end - 2] == 0x09, line[end - 1] == 0x7C { end -= 2 }
        guard end > 0 else { return }
        var start = 0
        var i = 0
        while i < end, ranges.count < count {
            if line[i] == 0x09, i + 2 < end, line[i + 1] == 0x7C, line[i + 2] == 0x09 {
                ranges.append(start..<i)
                i += 3
                start = i
            } else {
                i += 1
            }
        }
        if ranges.count < count { ranges.append(start..<end) }
    }

    /// The first `count` fields of a `.dmp` line as strings; [] for a blank line.
    static func fields(_ line: UnsafeBufferPointer<UInt8>, count: Int) -> [String] {
        var ranges: [Range<Int>] = []
        fieldRanges(line, count: count, into: &ranges)
        return ranges.map { String(decoding: UnsafeBufferPointer(rebasing: line[$0]), as: UTF8.self) }
    }

    /// The decimal integer in `line[range]`, read as `Int64(_:)` reads text (an optional sign,
    /// then digits, nil on overflow), without making a string.
    static func integer(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int64? {
        var i = range.lowerBound
        var negative = false
        if i < range.upperBound, line[i] == 0x2B || line[i] == 0x2D {
            negative = line[i] == 0x2D
            i += 1
        }
        guard i < range.upperBound else { return nil }
        var value: Int64 = 0
        while i < range.upperBound {
            let digit = line[i] &- 0x30
            guard digit < 10 else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = negative ? times.subtractingReportingOverflow(Int64(digit)) : times.addingReportingOverflow(Int64(digit))
            guard !o1, !o2 else { return nil }
            value = sum
            i += 1
        }
        return value
    }
}
