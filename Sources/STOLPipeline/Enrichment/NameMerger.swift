import STOLEngine
import STOLProtocol

/// Merges the common names of another source (MDD, AviList, a ColDP or DwC-A) into an assembled
/// backbone by scientific name, without adding taxa: `build-db --names-from-…`.
///
/// Each source taxon with common names is looked up among the backbone's accepted names, then by
/// its synonyms, then among the backbone's synonyms; a species of the source may also be a
/// subspecies of the backbone with the same genus and last epithet (MDD's *Canis familiaris* is
/// NCBI's *Canis lupus familiaris*). A candidate must share a group with the source's lineage
/// (a kingdom, phylum, class, order or family name; Animalia = Metazoa, Plantae = Viridiplantae),
/// so homonyms across kingdoms never get each other's names: AviList's gannets (*Morus*, Aves)
/// never name NCBI's mulberries (*Morus*, Viridiplantae). Of several candidates the one sharing the
/// most groups wins; a tie is a conflict.
///
/// A name the taxon already has (ignoring case and accents) is not added again. A name that a
/// relative already carries (same genus, other than the taxon's own subspecies: MDD's "Dingo" for
/// the dog, when the backbone has the dingo) is a conflict and not added. A source's preferred name becomes the taxon's preferred name
/// in its language only when the taxon has none there; otherwise it is added beside it, and a
/// different preferred name is counted as a conflict. Matched through a synonym, the source's
/// accepted name is added as a synonym. Every name added records the source (`name_sources`).
public struct NameMerger {
    /// Kinds of conflict, each counted with examples.
    public enum Conflict: String, Sendable, CaseIterable, Comparable {
        /// Several backbone taxa fit equally (homonyms the lineage cannot tell apart).
        case ambiguous = "several taxa fit equally"
        /// The name's only candidates are in other groups (a homonym in another kingdom, class…).
        case otherGroup = "same name, other group"
        /// The taxon has another preferred name in that language; the source's is added beside it.
        case preferredDiffers = "another preferred name"
        /// A relative in the backbone (same genus) already carries the name; not added.
        case nameOfRelative = "name of a relative"
        /// Two taxa of the source land on one backbone taxon (a lump); both give their names.
        case lumped = "two source taxa on one taxon"

        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

    /// How a source taxon was matched.
    public enum Match: String, Sendable, CaseIterable, Comparable {
        case acceptedName = "accepted name"
        case sourceSynonym = "a synonym of the source"
        case backboneSynonym = "a synonym of the backbone"
        case subspecies = "species of the source, subspecies of the backbone"

        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

    /// What one source gave.
    public struct Report: Sendable {
        public var source: String
        /// Source taxa with at least one common name.
        public var withNames = 0
        public var matched: [Match: Int] = [:]
        /// Names added, by language.
        public var added: [String: Int] = [:]
        /// Taxa that had no common name in a language and now have one, by language.
        public var taxaGainingFirstName: [String: Int] = [:]
        /// Accepted names of the source added as synonyms (matched through a synonym).
        public var synonymsAdded = 0
        /// Names the taxon already had.
        public var alreadyPresent = 0
        public var conflicts: [Conflict: Int] = [:]
        public var conflictExamples: [Conflict: [String]] = [:]
        /// Source taxa with names that match no backbone taxon, by rank ("unranked" without one).
        public var unmatched: [String: Int] = [:]
        public var unmatchedExamples: [String] = []

        public var addedTotal: Int { added.values.reduce(0, +) }
        public var matchedTotal: Int { matched.values.reduce(0, +) }
        public var unmatchedTotal: Int { unmatched.values.reduce(0, +) }

        mutating func conflict(_ kind: Conflict, _ example: @autoclosure () -> String) {
            conflicts[kind, default: 0] += 1
            if conflictExamples[kind, default: []].count < 5 { conflictExamples[kind, default: []].append(example()) }
        }

        /// Lines for the build's output.
        public var lines: [String] {
            func list<K: Comparable>(_ counts: [K: Int], _ name: (K) -> String) -> String {
                counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.value) \(name($0.key))" }.joined(separator: ", ")
            }
            var out = [
                "\(withNames) source taxa with common names: \(matchedTotal) matched (\(list(matched, \.rawValue))), \(unmatchedTotal) unmatched"
                    + (unmatched.isEmpty ? "" : " (\(list(unmatched) { $0 }))"),
                "\(addedTotal) names added (\(list(added) { $0 })); \(list(taxaGainingFirstName) { "taxa gain a first name in \($0)" })"
                    + "; \(synonymsAdded) synonyms added; \(alreadyPresent) names already there",
            ]
            if !conflicts.isEmpty { out.append("conflicts: " + list(conflicts, \.rawValue)) }
            for kind in Conflict.allCases {
                for example in conflictExamples[kind] ?? [] { out.append("  \(kind.rawValue): \(example)") }
            }
            for example in unmatchedExamples { out.append("  unmatched: \(example)") }
            return out
        }
    }

    public private(set) var assembled: TaxonomyAssembler.Assembled
    private let index: BackboneIndex
    /// Backbone taxa by each folded common name, for names a relative carries.
    private var commonNameHolders: [String: [Int32]] = [:]

    /// Takes `assembled` over (pass it with `consume`: a second reference would copy every taxon
    /// on the first name added).
    public init(_ assembled: consuming TaxonomyAssembler.Assembled) {
        index = BackboneIndex(assembled)
        var holders: [String: [Int32]] = [:]
        for (i, taxon) in assembled.taxa.enumerated() {
            for name in taxon.names where name.type != .synonym {
                holders[Self.nameKey(name.name, name.lang), default: []].append(Int32(i))
            }
        }
        commonNameHolders = holders
        self.assembled = consume assembled
    }

    static func nameKey(_ name: String, _ lang: String) -> String { lang + "|" + TextFolding.fold(name) }

    /// Merges the names of `source`'s taxa, labelled `label` (its credit) in `name_sources`.
    public mutating func merge(_ source: ImportResult, label: String) -> Report {
        var report = Report(source: label)
        var byKey: [String: Int] = [:]
        for (i, taxon) in source.taxa.enumerated() { byKey[taxon.key] = i }
        var claimedBy: [Int32: String] = [:]
        for taxon in source.taxa {
            let common = taxon.names.filter { $0.type != .synonym }
            guard !common.isEmpty else { continue }
            report.withNames += 1
            let lineage = sourceLineage(of: taxon, in: source, byKey: byKey)
            guard let (target, how) = match(taxon, lineage: lineage, report: &report) else { continue }
            report.matched[how, default: 0] += 1
            if let earlier = claimedBy[target], earlier != taxon.scientificName {
                report.conflict(.lumped, "\(earlier) and \(taxon.scientificName) → \(assembled.taxa[Int(target)].scientificName)")
            }
            claimedBy[target] = taxon.scientificName
            add(common, of: taxon, to: target, label: label, report: &report)
            if how == .sourceSynonym || how == .backboneSynonym || how == .subspecies {
                let accepted = taxon.scientificName
                let target = Int(target)
                if TextFolding.fold(accepted) != TextFolding.fold(assembled.taxa[target].scientificName),
                   !assembled.taxa[target].names.contains(where: { TextFolding.fold($0.name) == TextFolding.fold(accepted) }) {
                    assembled.taxa[target].names.append(SourceName(accepted, lang: "la", type: .synonym, source: label))
                    report.synonymsAdded += 1
                }
            }
        }
        return report
    }

    /// The folded group names above a source taxon's genus (kingdom to family; a domain says
    /// nothing, as every eukaryote shares it), with the kingdoms' other names.
    func sourceLineage(of taxon: SourceTaxon, in source: ImportResult, byKey: [String: Int]) -> Set<String> {
        var out: Set<String> = []
        var key = taxon.parentKey
        var steps = 0
        while let k = key, let i = byKey[k], steps < 10_000 {
            let up = source.taxa[i]
            if let rank = up.rank, rank > .domain, rank < .genus { out.formUnion(GroupNames.equivalents(of: up.scientificName)) }
            if up.rank == nil { out.formUnion(GroupNames.equivalents(of: up.scientificName)) }
            key = up.parentKey
            steps += 1
        }
        return out
    }

    /// The backbone taxon `taxon` names, and how; nil (counted) when none or no single one fits.
    mutating func match(_ taxon: SourceTaxon, lineage: Set<String>, report: inout Report) -> (Int32, Match)? {
        let synonyms = taxon.names.filter { $0.type == .synonym }.map(\.name)
        var steps: [(Match, [Int32])] = [
            (.acceptedName, index.taxa(named: taxon.scientificName)),
            (.sourceSynonym, synonyms.flatMap { index.taxa(named: $0) }),
            (.backboneSynonym, ([taxon.scientificName] + synonyms).flatMap { index.taxa(withSynonym: $0) }),
        ]
        if taxon.rank == .species { steps.append((.subspecies, subspeciesCandidates(of: taxon.scientificName))) }
        var rejected: [Int32] = []
        for (how, found) in steps {
            let candidates = Array(Set(found)).sorted()
            guard !candidates.isEmpty else { continue }
            // With a lineage, a candidate must share a group with it; the most shared wins.
            guard !lineage.isEmpty else {
                if candidates.count == 1 { return (candidates[0], how) }
                report.conflict(.ambiguous, "\(taxon.scientificName): \(candidates.count) taxa")
                return nil
            }
            let scored = candidates.map { ($0, index.lineageNames(of: $0).intersection(lineage).count) }.filter { $0.1 > 0 }
            guard let best = scored.map(\.1).max() else {
                rejected += candidates
                continue
            }
            let top = scored.filter { $0.1 == best }
            if top.count == 1 { return (top[0].0, how) }
            report.conflict(.ambiguous, "\(taxon.scientificName): \(top.count) taxa share \(best) groups with it")
            return nil
        }
        if let other = rejected.first {
            let groups = index.ancestors(of: other).compactMap { a -> String? in
                let rank = assembled.taxa[Int(a)].rank
                return rank == .kingdom || rank == .class ? assembled.taxa[Int(a)].scientificName : nil
            }
            report.conflict(.otherGroup, "\(taxon.scientificName) (source: \(lineage.sorted().prefix(3).joined(separator: ", "))) is in \(groups.joined(separator: "/")) here")
            return nil
        }
        let rank = taxon.rank?.rawValue ?? "unranked"
        report.unmatched[rank, default: 0] += 1
        if report.unmatchedExamples.count < 5 { report.unmatchedExamples.append("\(rank) \(taxon.scientificName)") }
        return nil
    }

    /// Backbone subspecies and varieties `Genus species epithet` (or `Genus species var. epithet`)
    /// for a source species `Genus epithet`; hybrids (`Canis lupus x Canis lupus familiaris`) are
    /// not candidates.
    func subspeciesCandidates(of name: String) -> [Int32] {
        let parts = BackboneIndex.normalised(name).split(separator: " ")
        guard parts.count == 2 else { return [] }
        return (index.belowSpeciesByGenus[String(parts[0])] ?? []).filter { i in
            var words = BackboneIndex.normalised(index.scientificNames[Int(i)]).split(separator: " ")
            if words.count == 4, Self.infraspecificMarkers.contains(String(words[2])) { words.remove(at: 2) }
            return words.count == 3 && words[0] == parts[0] && words[2] == parts[1]
        }
    }

    /// The rank markers of infraspecific names: `subsp.`, `var.`, ….
    static let infraspecificMarkers: Set<String> = ["subsp.", "ssp.", "var.", "subvar.", "f.", "forma"]

    /// Adds `names` of source taxon `taxon` to backbone taxon `target`.
    mutating func add(_ names: [SourceName], of taxon: SourceTaxon, to target: Int32, label: String, report: inout Report) {
        let t = Int(target)
        let genus = genusOf(target)
        for name in names {
            let key = Self.nameKey(name.name, name.lang)
            if assembled.taxa[t].names.contains(where: { Self.nameKey($0.name, $0.lang) == key }) {
                report.alreadyPresent += 1
                continue
            }
            // A relative's (same genus) name, unless the relative is one of the taxon's own
            // subspecies (a species may carry its nominate subspecies' name).
            if let holder = commonNameHolders[key]?.first(where: { $0 != target && genus != nil && genusOf($0) == genus && !isDescendant($0, of: target) }) {
                report.conflict(.nameOfRelative, "\"\(name.name)\" (\(taxon.scientificName)) is \(assembled.taxa[Int(holder)].scientificName)'s here")
                continue
            }
            let hadName = assembled.taxa[t].names.contains { $0.type != .synonym && $0.lang == name.lang }
            var added = name
            added.source = label
            if name.isPreferred, let preferred = assembled.taxa[t].names.first(where: { $0.isPreferred && $0.type != .synonym && $0.lang == name.lang }) {
                added.isPreferred = false
                report.conflict(.preferredDiffers, "\(assembled.taxa[t].scientificName): \"\(preferred.name)\" here, \"\(name.name)\" in the source")
            }
            assembled.taxa[t].names.append(added)
            commonNameHolders[key, default: []].append(target)
            report.added[name.lang, default: 0] += 1
            if !hadName { report.taxaGainingFirstName[name.lang, default: 0] += 1 }
        }
    }

    /// Whether `i` lies below `ancestor`.
    func isDescendant(_ i: Int32, of ancestor: Int32) -> Bool {
        index.ancestors(of: i).contains(ancestor)
    }

    /// The nearest ancestor ranked genus of `i` (itself when a genus), or nil.
    func genusOf(_ i: Int32) -> Int32? {
        if assembled.taxa[Int(i)].rank == .genus { return i }
        return index.ancestors(of: i).first { assembled.taxa[Int($0)].rank == .genus }
    }
}
