import Foundation
import STOLEngine
import STOLProtocol

/// Attaches descriptions to the taxa of an assembled backbone: from generic files
/// (`DescriptionsFile`, `--descriptions`, `--taxa`'s `descriptions.tsv`) and from Wikipedia's
/// introductions by NCBI tax id (`WikipediaIntros`, checked by `DescriptionSubject`).
///
/// A taxon has at most one description per language: the first attached wins, and a later one
/// for the same taxon and language is counted as `superseded`.
public struct DescriptionAttachment {
    /// Why a description was not attached.
    public enum SkipReason: String, Sendable, CaseIterable, Comparable {
        /// The id names no taxon of the build (for NCBI: a folded rank, a placeholder, a node
        /// below species without a name, or an id the dump does not have).
        case notInDatabase = "taxon not in the database"
        /// The scientific name names several taxa (homonyms): the row needs a taxon_id.
        case ambiguous = "name of several taxa"
        /// taxon_id and scientific_name name different taxa.
        case mismatch = "taxon_id and scientific_name disagree"
        /// Neither the title nor the opening names the taxon (*Felis catus* and "Wildcat").
        case notNamed = "neither title nor opening names the taxon"
        /// The title is an ancestor's name: the text is about its genus, family, ….
        case broader = "about an ancestor (broader article)"
        /// The title's qualifier names another group ("Perotis (beetle)" for a grass).
        case otherGroup = "title qualifier names another group"
        /// The text is empty.
        case empty = "empty text"
        /// The taxon already has a description in that language from an earlier source.
        case superseded = "taxon already described in that language"

        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

    /// A publisher and a licence of kept texts.
    public struct Attribution: Sendable, Hashable {
        public var sourceName: String?
        public var license: String?
    }

    /// What one source gave.
    public struct Report: Sendable {
        /// Attached.
        public var kept = 0
        /// Of `kept`, those whose title named the taxon, and those whose opening did (Wikipedia).
        public var keptByTitle = 0
        public var keptByOpening = 0
        /// Of `kept`, the texts cut short by their source (ending in "…").
        public var keptTruncated = 0
        /// Who published the kept texts and under which licence, for the dataset's credits.
        public var attributions: Set<Attribution> = []
        public var skipped: [SkipReason: Int] = [:]
        /// A few examples per reason: "9685 Felis catus: Wildcat".
        public var examples: [SkipReason: [String]] = [:]
        /// Lines that could not be read, and rows refused for reasons the file's author must fix
        /// (names that match nothing, ambiguous names), with file and line.
        public var issues: [SourceIssue] = []

        public var skippedTotal: Int { skipped.values.reduce(0, +) }

        mutating func skip(_ reason: SkipReason, _ example: @autoclosure () -> String) {
            skipped[reason, default: 0] += 1
            if examples[reason, default: []].count < 5 { examples[reason, default: []].append(example()) }
        }

        /// "12 kept; skipped: 3 (2 neither title nor opening names the taxon, 1 …)".
        public var summary: String {
            let reasons = skipped.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.value) \($0.key.rawValue)" }
            return "\(kept) kept" + (keptByTitle + keptByOpening > 0 ? " (\(keptByTitle) by title, \(keptByOpening) by opening)" : "")
                + (keptTruncated > 0 ? ", \(keptTruncated) of them cut short by the source" : "")
                + "; \(skippedTotal) skipped" + (reasons.isEmpty ? "" : " (" + reasons.joined(separator: ", ") + ")")
        }
    }

    public private(set) var assembled: TaxonomyAssembler.Assembled
    private let index: BackboneIndex

    /// Takes `assembled` over (pass it with `consume`: a second reference would copy every taxon
    /// on the first description added).
    public init(_ assembled: consuming TaxonomyAssembler.Assembled) {
        index = BackboneIndex(assembled)
        self.assembled = consume assembled
    }

    /// Attaches a generic file's records.
    public mutating func attach(_ records: [DescriptionsFile.Record]) -> Report {
        var report = Report()
        for record in records {
            func refuse(_ reason: SkipReason, _ detail: String) {
                report.skip(reason, "\(record.location): \(detail)")
                report.issues.append(SourceIssue("\(detail); line skipped", at: record.location))
            }
            let target: Int32
            switch record.subject {
            case .taxonID(let id):
                guard let i = index.byID[id] else { refuse(.notInDatabase, "no taxon has id \(id)"); continue }
                target = i
            case .scientificName(let name):
                switch resolve(name) {
                case .one(let i): target = i
                case .none: refuse(.notInDatabase, "no taxon is named \(name)"); continue
                case .several(let count): refuse(.ambiguous, "\(name) names \(count) taxa; give its taxon_id"); continue
                }
            case .both(let id, let name):
                guard let i = index.byID[id] else { refuse(.notInDatabase, "no taxon has id \(id)"); continue }
                guard BackboneIndex.normalised(assembled.taxa[Int(i)].scientificName) == name
                    || assembled.taxa[Int(i)].names.contains(where: { $0.type == .synonym && BackboneIndex.normalised($0.name) == name })
                else {
                    refuse(.mismatch, "taxon \(id) is \(assembled.taxa[Int(i)].scientificName), not \(name)")
                    continue
                }
                target = i
            }
            add(record.description, to: target, report: &report, example: "\(record.location): \(record.subject)")
        }
        return report
    }

    /// Reads Wikipedia's introductions from `url` and attaches those about their taxon. Ids are
    /// NCBI tax ids: only taxa of an NCBI source (keys `ncbi|…`) are looked up.
    public mutating func attachWikipedia(_ url: URL) throws -> Report {
        var report = Report()
        var seen: Set<Int64> = []
        let issues = try WikipediaIntros().read(url) { intro in
            guard seen.insert(intro.taxID).inserted else {
                report.issues.append(SourceIssue("tax id \(intro.taxID) appears again; line skipped", at: intro.location))
                return
            }
            guard let i = index.byID[intro.taxID], assembled.taxa[Int(i)].key.hasPrefix("ncbi|") else {
                report.skip(.notInDatabase, "\(intro.taxID): \(intro.title)")
                return
            }
            guard !intro.text.isEmpty else {
                report.skip(.empty, "\(intro.taxID): \(intro.title)")
                return
            }
            let taxon = assembled.taxa[Int(i)]
            let example = "\(intro.taxID) \(taxon.scientificName): \(intro.title)"
            let verdict = DescriptionSubject.judge(
                title: intro.title, text: intro.text, subject: subject(of: i), ancestors: { ancestors(of: i) }, lineage: { index.lineageNames(of: i) })
            switch verdict {
            case .title, .opening:
                let description = SourceDescription(
                    lang: "en", text: intro.text, sourceTitle: intro.title, sourceURL: WikipediaIntros.url(title: intro.title),
                    license: WikipediaIntros.license, sourceName: WikipediaIntros.sourceName)
                if add(description, to: i, report: &report, example: example) {
                    if verdict == .title { report.keptByTitle += 1 } else { report.keptByOpening += 1 }
                    if intro.text.hasSuffix("…") { report.keptTruncated += 1 }
                }
            case .broader(let rank): report.skip(.broader, example + (rank.map { " (its \($0.rawValue))" } ?? ""))
            case .notNamed: report.skip(.notNamed, example)
            case .otherGroup(let group): report.skip(.otherGroup, example + " (the taxon is no \(group))")
            }
        }
        report.issues += issues
        return report
    }

    /// Adds `description` to taxon `i` unless it has one in that language; returns whether it did.
    @discardableResult
    private mutating func add(_ description: SourceDescription, to i: Int32, report: inout Report, example: String) -> Bool {
        guard !assembled.taxa[Int(i)].descriptions.contains(where: { $0.lang == description.lang }) else {
            report.skip(.superseded, example)
            return false
        }
        assembled.taxa[Int(i)].descriptions.append(description)
        report.kept += 1
        report.attributions.insert(Attribution(sourceName: description.sourceName, license: description.license))
        return true
    }

    /// How a scientific name resolves.
    enum Resolution: Equatable {
        case none, one(Int32), several(Int)
    }

    /// The one taxon an accepted name, or else a synonym, names.
    func resolve(_ name: String) -> Resolution {
        for found in [index.taxa(named: name), index.taxa(withSynonym: name)] where !found.isEmpty {
            return found.count == 1 ? .one(found[0]) : .several(found.count)
        }
        return .none
    }

    /// Taxon `i`'s names, as `DescriptionSubject` compares them: scientific name and synonyms,
    /// and English common names.
    func subject(of i: Int32) -> DescriptionSubject.Subject {
        var scientific = [DescriptionSubject.words(assembled.taxa[Int(i)].scientificName)]
        var common: [[String]] = []
        for name in assembled.taxa[Int(i)].names {
            if name.type == .synonym {
                scientific.append(DescriptionSubject.words(name.name))
            } else if name.lang == "en" || name.lang.hasPrefix("en-") {
                common.append(DescriptionSubject.words(name.name))
            }
        }
        return DescriptionSubject.Subject(scientific: scientific.filter { !$0.isEmpty }, common: common.filter { !$0.isEmpty })
    }

    /// Taxon `i`'s ancestors' names, nearest first.
    func ancestors(of i: Int32) -> [DescriptionSubject.Ancestor] {
        index.ancestors(of: i).map { a in
            let names = subject(of: a)
            return (names.scientific + names.common, assembled.taxa[Int(a)].rank)
        }
    }
}
