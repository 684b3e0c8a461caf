import STOLEngine
/// Merges the output of importers into one validated forest with stable integer ids.
///
/// Taxa with the same key are one taxon (names, traits and references add up; a conflicting
/// single-valued field is an issue). Rows whose parent is missing, that sit on a cycle or whose
/// id is taken are reported with their location and skipped, with everything below them, unless
/// the policy is `.fail`.
public struct TaxonomyAssembler {
    /// What to do with a bad source row.
    public enum Policy: Sendable {
        /// Skip the row (and what hangs below it), count and report it.
        case skip
        /// Stop the build at the first bad row.
        case fail
    }

    /// The result: taxa with ids and parent indices, in a deterministic order.
    public struct Assembled: Sendable {
        public var taxa: [SourceTaxon]
        public var ids: [Int64]
        /// Index into `taxa` of each taxon's parent, or -1.
        public var parentIndex: [Int32]
        public var issues: SourceIssues
        /// What became of each source's rows, in the order the results were given.
        public var sources: [SourceTally] = []

        /// No taxa: what a holder keeps once it has handed its taxa on.
        public static let none = Assembled(taxa: [], ids: [], parentIndex: [], issues: SourceIssues())
    }

    /// What became of one source's rows: how many were read, skipped and kept.
    public struct SourceTally: Sendable, Equatable {
        /// Rows the importer read (when it does not count them: its taxa and skipped rows).
        public var rowsRead = 0
        /// Rows the importer skipped, plus its taxa the assembler dropped (a missing parent, a
        /// cycle, an ancestor dropped).
        public var rowsSkipped = 0
        /// Taxa of this source kept (a taxon that several sources declare counts for each).
        public var taxaKept = 0
        /// Kept taxa whose status is accepted (not doubtful).
        public var acceptedKept = 0

        /// The share of the rows read that were skipped, 0…1.
        public var skippedShare: Double { rowsRead == 0 ? (rowsSkipped > 0 ? 1 : 0) : min(1, Double(rowsSkipped) / Double(rowsRead)) }
    }

    public var policy: Policy

    public init(policy: Policy = .skip) {
        self.policy = policy
    }

    public func assemble(_ results: [ImportResult]) throws(SourceIssue) -> Assembled {
        var issues = SourceIssues()
        for result in results { issues += result.skipped }
        if policy == .fail, let first = issues.first { throw first }

        // 1. Merge by key, keeping first-seen order.
        let total = results.reduce(0) { $0 + $1.taxa.count }
        var index: [String: Int] = [:]
        index.reserveCapacity(total)
        var taxa: [SourceTaxon] = []
        taxa.reserveCapacity(total)
        /// The result each merged taxon was first declared by, and the later declarations merged into it.
        var declaredBy: [Int32] = []
        declaredBy.reserveCapacity(total)
        var declaredAgain: [(taxon: Int32, result: Int32)] = []
        var skippedBy = [Int](repeating: 0, count: results.count)
        for (r, result) in results.enumerated() {
            for taxon in result.taxa {
                guard let existing = index[taxon.key] else {
                    index[taxon.key] = taxa.count
                    taxa.append(taxon)
                    declaredBy.append(Int32(r))
                    continue
                }
                // A taxon declared again under another parent is left out; other conflicts keep the first value.
                let leftOut = taxa[existing].parentKey != taxon.parentKey
                if !leftOut { declaredAgain.append((Int32(existing), Int32(r))) }
                if let problem = Self.merge(taxon, into: &taxa[existing]) {
                    let issue = SourceIssue(problem, at: taxon.origin, kind: .conflict, rows: leftOut ? 1 : 0)
                    if leftOut { skippedBy[r] += 1 }
                    if policy == .fail { throw issue }
                    issues.append(issue)
                }
            }
        }

        // 2. Resolve parents; drop rows whose parent is missing, then their descendants.
        var keep = [Bool](repeating: true, count: taxa.count)
        var parentIndex = [Int32](repeating: -1, count: taxa.count)
        for (i, taxon) in taxa.enumerated() {
            guard let parentKey = taxon.parentKey else { continue }
            if let p = index[parentKey], p != i {
                parentIndex[i] = Int32(p)
            } else {
                let own = index[parentKey] == i
                let what = own ? "is its own parent" : "has a parent that does not exist (\(parentKey))"
                let issue = SourceIssue("\(taxon.scientificName) \(what)", at: taxon.origin, kind: own ? .ownParent : .missingParent)
                if policy == .fail { throw issue }
                issues.append(issue)
                keep[i] = false
            }
        }
        // 3. Cycles: walk up from each node with a visit stamp.
        var state = [UInt8](repeating: 0, count: taxa.count)  // 0 new, 1 on path, 2 done
        for start in taxa.indices where state[start] == 0 {
            var path: [Int] = []
            var node = start
            while node >= 0, state[node] == 0 {
                state[node] = 1
                path.append(node)
                node = Int(parentIndex[node])
            }
            if node >= 0, state[node] == 1 {
                var cycle: [Int] = []
                var c = node
                repeat {
                    cycle.append(c)
                    c = Int(parentIndex[c])
                } while c != node
                let issue = SourceIssue("\(taxa[node].scientificName) is on a parent cycle", at: taxa[node].origin, kind: .parentCycle, rows: cycle.count)
                if policy == .fail { throw issue }
                issues.append(issue)
                // Break the cycle: every node of the cycle is dropped.
                for c in cycle { keep[c] = false }
            }
            for p in path { state[p] = 2 }
        }
        // Propagate drops downwards (a child of a dropped row is dropped too).
        var resolved = [Int8](repeating: 0, count: taxa.count)  // 0 unknown, 1 keep, -1 drop
        func settle(_ i: Int) -> Bool {
            var chain: [Int] = []
            var node = i
            var verdict = true
            while true {
                if resolved[node] != 0 { verdict = resolved[node] == 1; break }
                if !keep[node] { verdict = false; resolved[node] = -1; break }
                chain.append(node)
                let p = Int(parentIndex[node])
                if p < 0 { verdict = true; break }
                node = p
            }
            for c in chain { resolved[c] = verdict ? 1 : -1 }
            return verdict
        }
        var dropped = 0
        for i in taxa.indices where !settle(i) { dropped += 1 }
        if dropped > 0 {
            let explicit = keep.lazy.filter { !$0 }.count
            if dropped > explicit {
                issues.append(SourceIssue("\(dropped - explicit) more rows dropped because an ancestor was dropped", at: nil, kind: .droppedWithAncestor, rows: dropped - explicit))
            }
        }
        var sources = results.enumerated().map { r, result in
            SourceTally(rowsRead: result.rowsRead > 0 ? result.rowsRead : result.taxa.count + result.skipped.rowsSkipped,
                        rowsSkipped: result.skipped.rowsSkipped + skippedBy[r])
        }
        func tally(_ i: Int, for r: Int) {
            if resolved[i] == 1 {
                sources[r].taxaKept += 1
                if taxa[i].status == .accepted { sources[r].acceptedKept += 1 }
            } else {
                sources[r].rowsSkipped += 1
            }
        }
        for i in taxa.indices { tally(i, for: Int(declaredBy[i])) }
        for (i, r) in declaredAgain { tally(Int(i), for: Int(r)) }

        // 4. Compact (when something was dropped) and assign ids.
        var kept = taxa, keptParents = parentIndex
        if dropped > 0 {
            var newIndex = [Int32](repeating: -1, count: taxa.count)
            kept = []
            kept.reserveCapacity(taxa.count - dropped)
            for i in taxa.indices where resolved[i] == 1 {
                newIndex[i] = Int32(kept.count)
                kept.append(taxa[i])
            }
            keptParents = [Int32](repeating: -1, count: kept.count)
            for i in taxa.indices where resolved[i] == 1 {
                let p = parentIndex[i]
                keptParents[Int(newIndex[i])] = p >= 0 ? newIndex[Int(p)] : -1
            }
        }
        var ids = [Int64](repeating: 0, count: kept.count)
        var used: [Int64: Int] = [:]
        used.reserveCapacity(kept.count)
        var derived: [Int] = []
        for (i, taxon) in kept.enumerated() {
            guard let fixed = taxon.fixedID else { derived.append(i); continue }
            guard fixed > 0, fixed <= StableID.maxID else {
                throw SourceIssue("id \(fixed) of \(taxon.scientificName) is outside 1…2^52", at: taxon.origin)
            }
            if let other = used[fixed] {
                throw SourceIssue("duplicate id \(fixed): \(taxon.scientificName) and \(kept[other].scientificName)", at: taxon.origin)
            }
            used[fixed] = i
            ids[i] = fixed
        }
        // Derived ids come from the key; collisions (vanishingly rare) probe deterministically in key order.
        derived.sort { kept[$0].key < kept[$1].key }
        for i in derived {
            var id = StableID.make(kept[i].key)
            while used[id] != nil { id = id % StableID.maxID + 1 }
            used[id] = i
            ids[i] = id
        }
        return Assembled(taxa: kept, ids: ids, parentIndex: keptParents, issues: issues, sources: sources)
    }

    /// Folds `other` into `target`; returns a description of a conflict, if any.
    static func merge(_ other: SourceTaxon, into target: inout SourceTaxon) -> String? {
        var conflicts: [String] = []
        func pick<T: Equatable>(_ a: inout T?, _ b: T?, _ field: String) {
            guard let b else { return }
            if let existing = a, existing != b { conflicts.append("\(field) \(existing) vs \(b)") } else { a = b }
        }
        if target.parentKey != other.parentKey {
            return "\(other.scientificName) is declared again under a different parent"
        }
        pick(&target.author, other.author, "author")
        pick(&target.year, other.year, "year")
        pick(&target.conservation, other.conservation, "iucn")
        pick(&target.fixedID, other.fixedID, "id")
        if other.status != .accepted { target.status = other.status }
        for name in other.names where !target.names.contains(where: { $0.name == name.name && $0.lang == name.lang && $0.type == name.type }) {
            var name = name
            if name.isPreferred, target.names.contains(where: { $0.isPreferred && $0.lang == name.lang && $0.type == name.type }) {
                name.isPreferred = false
            }
            target.names.append(name)
        }
        for trait in other.traits where !target.traits.contains(trait) { target.traits.append(trait) }
        for ref in other.references where !target.references.contains(ref) { target.references.append(ref) }
        for d in other.descriptions where !target.descriptions.contains(where: { $0.lang == d.lang }) { target.descriptions.append(d) }
        return conflicts.isEmpty ? nil : "\(other.scientificName): conflicting \(conflicts.joined(separator: ", "))"
    }
}

/// Ids derived from a taxon's key: stable across builds and across datasets that share names, and
/// below 2^52 so that JavaScript clients read them exactly.
public enum StableID {
    public static let maxID: Int64 = (1 << 52) - 1

    /// FNV-1a over the key's UTF-8, folded into 1…2^52−1.
    public static func make(_ key: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return Int64(hash % UInt64(maxID)) + 1
    }
}
