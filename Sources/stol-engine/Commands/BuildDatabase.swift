import ArgumentParser
import Foundation
import STOLEngine
import STOLPipeline
import STOLProtocol

/// `stol-engine build-db`: the offline pipeline that turns source files into a taxonomy database.
struct BuildDatabase: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build-db",
        abstract: "Build a taxonomy database from source files.",
        discussion: """
            Sources may be combined; taxa with the same rank and name in the same kingdom are merged.
            Bad rows are reported with file and line and skipped (or, with --strict, fail the build).
            The build fails, writing nothing, when it keeps no accepted taxon, or when a source yields
            no taxa or loses more than a fifth of its rows (unless --allow-partial).
            The database is made in a folder beside --out and renamed over it only when complete:
            a failure, a full disk or SIGTERM, SIGINT or SIGHUP leaves --out as it was and nothing
            beside it.
            """)

    @Option(name: .customLong("taxa"), help: "A directory of .taxa files (the project's own format; see dataset/FORMAT.md).")
    var taxaDirectories: [String] = []

    @Option(help: "A Mammal Diversity Database release CSV (gzip or plain).")
    var mdd: [String] = []

    @Option(help: "An AviList extended CSV (gzip or plain); subspecies rows are skipped.")
    var avilist: [String] = []

    @Option(help: "A parent-child table with columns id, parent_id, name[, rank] (TSV or CSV, gzip or plain), such as the Open Tree node table.")
    var table: [String] = []

    @Option(help: "An NCBI taxdump directory (nodes.dmp, names.dmp); intermediate ranks are folded.")
    var ncbi: [String] = []

    @Option(help: "A Darwin Core Archive (.zip or folder), read through its meta.xml.")
    var dwca: [String] = []

    @Option(help: "A Catalogue of Life Data Package (.zip or folder): NameUsage or Name + Taxon + Synonym, and VernacularName.")
    var coldp: [String] = []

    @Option(help: "English Wikipedia's introductions by NCBI tax id (tax_id, wikidata, enwiki_title, intro; gzip or plain), kept as descriptions where the title or opening names the taxon. CC BY-SA 3.0. Needs --ncbi.")
    var wikipedia: [String] = []

    @Option(help: "A descriptions table: TSV with a header naming taxon_id or scientific_name, lang, text, and optionally source_title, source_url, license, source_name (README, \"Descriptions\").")
    var descriptions: [String] = []

    @Option(help: "Merge the English names of a Mammal Diversity Database CSV into the taxa, by scientific name (adds no taxa).")
    var namesFromMdd: [String] = []

    @Option(help: "Merge the English names of an AviList extended CSV into the taxa, by scientific name (adds no taxa).")
    var namesFromAvilist: [String] = []

    @Option(help: "Merge the vernacular names (every language) of a Catalogue of Life Data Package into the taxa, by scientific name (adds no taxa).")
    var namesFromColdp: [String] = []

    @Option(help: "Merge the vernacular names (every language) of a Darwin Core Archive into the taxa, by scientific name (adds no taxa).")
    var namesFromDwca: [String] = []

    @Flag(help: "Keep NCBI's placeholder names (Bidens sp. 'Lyon', uncultured bacterium, environmental samples, unclassified ...), which are left out by default.")
    var keepPlaceholders = false

    @Option(help: "Dataset license (default: from dataset.info).")
    var license: String?

    @Option(help: "Where to write the database (an existing file is replaced only once the new one is complete and checked).")
    var out: String

    @Option(help: "Closest relatives precomputed per species (0 to skip).")
    var topN: Int = 10

    @Flag(help: "Fail on the first bad source row instead of skipping it.")
    var strict = false

    @Flag(help: "Write the database even when a source yields no taxa or loses more than a fifth of its rows (a build that keeps no accepted taxon is never written).")
    var allowPartial = false

    @Option(help: "Dataset name (default: from dataset.info, or derived from the sources).")
    var name: String?

    @Option(help: "Dataset version.")
    var datasetVersion: String?

    @Option(help: "Build date stored in the database (default: from dataset.info, or today); fix it for reproducible builds.")
    var buildDate: String?

    @Flag(help: "Print no progress on stderr.")
    var quiet = false

    func validate() throws {
        guard !(taxaDirectories + mdd + avilist + table + ncbi + dwca + coldp).isEmpty else {
            throw ValidationError("name at least one source (--taxa, --mdd, --avilist, --table, --ncbi, --dwca, --coldp)")
        }
        guard (0...100).contains(topN) else { throw ValidationError("--top-n must be between 0 and 100") }
        guard wikipedia.isEmpty || !ncbi.isEmpty else {
            throw ValidationError("--wikipedia keys its texts by NCBI tax id: it needs an --ncbi source")
        }
    }

    func note(_ text: String) {
        if !quiet { Stderr.print(text) }
    }

    func run() throws {
        // First the signals and the staged output: from here on, whatever ends the build leaves
        // --out as it was and nothing beside it.
        let signals = StopSignals()
        // A file-size limit (`ulimit -f`) then fails a write like a full disk instead of killing the build.
        signal(SIGXFSZ, SIG_IGN)
        let destination = URL(fileURLWithPath: out)
        let unchanged = FileManager.default.fileExists(atPath: destination.path) ? "\(out) is unchanged" : "nothing was written"
        let staged = try StagedOutput(replacing: destination)
        defer { staged.abandon() }
        signals.onSignal { name in
            // Once the new database is in place, the build just ends as it would have.
            guard staged.abandon() else { return }
            Stderr.print("build-db: stopped by \(name); \(unchanged)")
            _exit(128 + (StopSignals.names.first { $0.name == name }?.signal ?? SIGTERM))
        }
        do {
            try build(into: staged)
        } catch {
            throw BuildFailure("\(error); \(unchanged)")
        }
        withExtendedLifetime(signals) {}
    }

    /// Reads the sources, checks what they yield, and builds the database into `staged`, then
    /// puts it in place.
    private func build(into staged: StagedOutput) throws {
        let started = ContinuousClock.now
        var results: [ImportResult] = []
        /// Each result's source, for the per-source report.
        var labels: [String] = []
        var info: [String: String] = [:]
        var datasetDescriptions: [URL] = []
        for directory in taxaDirectories {
            let url = URL(fileURLWithPath: directory)
            results.append(try TaxaSourceParser().parse(directory: url))
            labels.append("--taxa \(directory)")
            info.merge(DatasetInfoFile.read(url.appendingPathComponent("dataset.info"))) { old, _ in old }
            let descriptions = url.appendingPathComponent(Self.datasetDescriptionsFile)
            if FileManager.default.fileExists(atPath: descriptions.path) { datasetDescriptions.append(descriptions) }
        }
        for file in mdd {
            note("reading \(file)")
            results.append(try MDDImporter().parse(file: URL(fileURLWithPath: file)))
            labels.append("--mdd \(file)")
        }
        for file in avilist {
            note("reading \(file)")
            let output = try AviListImporter().parse(file: URL(fileURLWithPath: file))
            results.append(output.result)
            labels.append("--avilist \(file)")
            note("  \(output.subspeciesSkipped) subspecies rows skipped by design")
        }
        for file in table {
            note("reading \(file)")
            results.append(try ParentChildTableImporter().parse(file: URL(fileURLWithPath: file)))
            labels.append("--table \(file)")
        }
        for directory in ncbi {
            note("reading \(directory)")
            let output = try NCBITaxdumpImporter(dropPlaceholders: !keepPlaceholders).parse(directory: URL(fileURLWithPath: directory))
            results.append(output.result)
            labels.append("--ncbi \(directory)")
            let kept = output.keptBelowSpecies.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key.rawValue)" }
            note("  \(output.foldedNodes) intermediate-rank nodes folded, \(output.droppedBelowSpecies) below species dropped"
                + (kept.isEmpty ? "" : ", kept below species because they have a common name: " + kept.joined(separator: ", ")))
            if !keepPlaceholders {
                note("  \(output.placeholders.total) placeholder names left out (\(output.placeholders.summary)); --keep-placeholders keeps them")
            }
        }
        for path in dwca {
            note("reading \(path)")
            let output = try DwCAImporter().parse(URL(fileURLWithPath: path))
            results.append(output.result)
            labels.append("--dwca \(path)")
            note("  " + output.counts.summary)
        }
        for path in coldp {
            note("reading \(path)")
            let output = try ColDPImporter().parse(URL(fileURLWithPath: path))
            results.append(output.result)
            labels.append("--coldp \(path)")
            note("  " + output.counts.summary)
        }
        note("read \(results.reduce(0) { $0 + $1.taxa.count }) taxa in \(ContinuousClock.now - started)")
        let assembler = TaxonomyAssembler(policy: strict ? .fail : .skip)
        var assembled: TaxonomyAssembler.Assembled
        do {
            assembled = try assembler.assemble(results)
        } catch {
            throw BuildFailure("bad source row: \(error)")
        }
        for issue in assembled.issues.prefix(50) { Stderr.print("warning: \(issue)") }
        if assembled.issues.total > 50 {
            Stderr.print("warning: … and \(assembled.issues.total - 50) more; by kind: " + assembled.issues.summary.joined(separator: "; "))
        }
        for line in BuildCompleteness.report(assembled, labels: labels) { note(line) }
        for problem in try BuildCompleteness(allowPartial: allowPartial).check(assembled, labels: labels) {
            Stderr.print("warning: \(problem) (built anyway: --allow-partial)")
        }

        var credits = results.flatMap(\.credits)
        var enriched = try enrich(consume assembled, datasetDescriptions: datasetDescriptions, info: info)
        assembled = enriched.assembled
        enriched.assembled = .none
        credits += enriched.credits
        let sourceFiles = results.flatMap(\.sourceFiles)
        results.removeAll()  // the assembled copy is all the build needs: free the source rows before it
        let metadata = DatabaseBuilder.Metadata(
            name: name ?? info["name"] ?? "Custom dataset",
            version: datasetVersion ?? info["version"] ?? "unversioned",
            license: license ?? info["license"] ?? "see the attribution of each source",
            attribution: ([info["attribution"]].compactMap { $0 } + credits).joined(separator: "\n"),
            buildDate: buildDate ?? info["build_date"] ?? ISO8601DateFormatter().string(from: Date()).prefix(10).description,
            sourceFiles: sourceFiles,
            description: info["description"])
        let quiet = self.quiet
        var builder = DatabaseBuilder(topN: topN)
        builder.progress = { stage, fraction in
            if !quiet { Stderr.print(String(format: "  %@ %3.0f%%", stage, fraction * 100)) }
        }
        let report = try builder.build(assembled, metadata: metadata, to: staged.file)
        try staged.commit()
        print("built \(out)")
        print("  taxa \(report.taxa), species \(report.species), below species \(report.belowSpecies), names \(report.names) (\(report.mergedNames) merged from other sources), references \(report.references), traits \(report.traits), descriptions \(report.descriptions)")
        for line in enriched.summary { print("  " + line) }
        print("  euler tour \(report.eulerEntries) entries, relatives \(report.relatives) rows, \(report.bytes) bytes")
        print("  skipped rows \(assembled.issues.rowsSkipped), issues \(assembled.issues.total)")
        for (stage, seconds) in report.timings {
            print("  " + stage.padding(toLength: 16, withPad: " ", startingAt: 0) + String(format: "%8.2f s", seconds))
        }
        let total = ContinuousClock.now - started
        print("  total \(total)")
    }
}

/// A failure the CLI reports in one line.
struct BuildFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// `key: value` lines, `#` comments.
enum DatasetInfoFile {
    static func read(_ url: URL) -> [String: String] {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [:] }
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            out[line[..<colon].trimmingCharacters(in: .whitespaces)] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return out
    }
}
