import Foundation
import STOLEngine
import STOLPipeline
import STOLProtocol

/// What `build-db` adds to the assembled taxa before writing them: names from other sources
/// (`--names-from-…`), then descriptions (`--taxa`'s `descriptions.tsv`, `--descriptions`,
/// `--wikipedia`, in that order: the first description of a taxon in a language wins).
extension BuildDatabase {
    /// The descriptions file of a `--taxa` directory (the dataset's own words).
    static let datasetDescriptionsFile = "descriptions.tsv"

    /// The enriched taxa, the credits their new content needs and lines for the build's output.
    struct Enriched {
        var assembled: TaxonomyAssembler.Assembled
        var credits: [String] = []
        var summary: [String] = []
    }

    /// The taxa are handed on, never copied: each step owns them alone while it adds to them (a
    /// second reference would copy NCBI's 886,315 taxa on the first change).
    func enrich(_ assembled: consuming TaxonomyAssembler.Assembled, datasetDescriptions: [URL], info: [String: String]) throws -> Enriched {
        var out = Enriched(assembled: TaxonomyAssembler.Assembled.none)
        let named = try mergeNames(consume assembled, into: &out)
        out.assembled = try attachDescriptions(named, to: &out, datasetDescriptions: datasetDescriptions, info: info)
        return out
    }

    /// Reports `issues` (and fails under --strict).
    func report(_ issues: [SourceIssue], of what: String) throws {
        try report(SourceIssues(issues), of: what)
    }

    /// The same for a source's issues, which count more than they keep.
    func report(_ issues: SourceIssues, of what: String) throws {
        if strict, let first = issues.first { throw BuildFailure("bad \(what): \(first)") }
        for issue in issues.prefix(20) { Stderr.print("warning: \(issue)") }
        if issues.total > 20 { Stderr.print("warning: … and \(issues.total - 20) more in \(what)") }
    }

    // MARK: Names

    private func mergeNames(_ assembled: consuming TaxonomyAssembler.Assembled, into out: inout Enriched) throws -> TaxonomyAssembler.Assembled {
        let sources: [(String, [String], (URL) throws -> ImportResult)] = [
            ("--names-from-mdd", namesFromMdd, { try MDDImporter().parse(file: $0) }),
            ("--names-from-avilist", namesFromAvilist, { try AviListImporter().parse(file: $0).result }),
            ("--names-from-coldp", namesFromColdp, { try ColDPImporter().parse($0).result }),
            ("--names-from-dwca", namesFromDwca, { try DwCAImporter().parse($0).result }),
        ]
        guard sources.contains(where: { !$0.1.isEmpty }) else { return assembled }
        let started = ContinuousClock.now
        var merger = NameMerger(consume assembled)
        for (option, paths, read) in sources {
            for path in paths {
                note("merging names of \(path) (\(option))")
                let source = try read(URL(fileURLWithPath: path))
                try report(source.skipped, of: "rows in \(path)")
                let label = source.credits.first ?? URL(fileURLWithPath: path).lastPathComponent
                let result = merger.merge(source, label: label)
                out.summary.append("names from \(URL(fileURLWithPath: path).lastPathComponent):")
                out.summary += result.lines.map { "  " + $0 }
                if result.addedTotal + result.synonymsAdded > 0 { out.credits.append(contentsOf: source.credits.map { "Names: " + $0 }) }
            }
        }
        note("merged names in \(ContinuousClock.now - started)")
        return merger.assembled
    }

    // MARK: Descriptions

    private func attachDescriptions(
        _ assembled: consuming TaxonomyAssembler.Assembled, to out: inout Enriched, datasetDescriptions: [URL], info: [String: String]
    ) throws -> TaxonomyAssembler.Assembled {
        guard !(datasetDescriptions.isEmpty && descriptions.isEmpty && wikipedia.isEmpty) else { return assembled }
        let started = ContinuousClock.now
        var attachment = DescriptionAttachment(consume assembled)
        // The dataset's own words: under the dataset's licence, attributed to the dataset.
        let datasetLicense = license ?? info["license"]
        let datasetDefaults = DescriptionsFile.Defaults(
            sourceName: name ?? info["name"], license: datasetLicense.map { AboutInfo.license(in: $0) ?? $0 })
        for url in datasetDescriptions {
            try attachFile(url, defaults: datasetDefaults, to: &attachment, summary: &out.summary)
        }
        for path in descriptions {
            let kept = try attachFile(URL(fileURLWithPath: path), defaults: .init(), to: &attachment, summary: &out.summary)
            // Credit each publisher and licence of the file's kept texts.
            out.credits += Set(kept.map { a in
                "Descriptions: " + [a.sourceName ?? URL(fileURLWithPath: path).lastPathComponent, a.license].compactMap { $0 }.joined(separator: ", ")
            }).sorted()
        }
        for path in wikipedia {
            note("reading \(path)")
            let result = try attachment.attachWikipedia(URL(fileURLWithPath: path))
            try report(result.issues, of: "lines in \(path)")
            out.summary.append("descriptions from \(URL(fileURLWithPath: path).lastPathComponent): \(result.summary)")
            for (reason, examples) in result.examples.sorted(by: { $0.key < $1.key }) {
                for example in examples.prefix(3) { out.summary.append("  \(reason.rawValue): \(example)") }
            }
            if result.kept > 0 { out.credits.append(WikipediaIntros.credit) }
        }
        note("attached descriptions in \(ContinuousClock.now - started)")
        return attachment.assembled
    }

    /// Attaches a generic descriptions file; returns who published the kept texts and their
    /// licences. A refused file changes nothing.
    @discardableResult
    private func attachFile(
        _ url: URL, defaults: DescriptionsFile.Defaults, to attachment: inout DescriptionAttachment, summary: inout [String]
    ) throws -> Set<DescriptionAttachment.Attribution> {
        note("reading \(url.path)")
        let file = try DescriptionsFile(defaults: defaults).read(url)
        try report(file.issues, of: "lines in \(url.path)")
        if file.refused {
            summary.append("descriptions from \(url.lastPathComponent): refused, nothing used (\(file.issues.first?.description ?? ""))")
            return []
        }
        let result = attachment.attach(file.records)
        try report(result.issues, of: "descriptions in \(url.path)")
        summary.append("descriptions from \(url.lastPathComponent): \(result.summary); \(file.issues.count) bad lines")
        return result.attributions
    }
}
