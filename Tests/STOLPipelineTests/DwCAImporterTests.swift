import Foundation
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

extension ImporterTests {
    @Suite struct DwCA {
        static let coreTerms = [
            "taxonID", "parentNameUsageID", "acceptedNameUsageID", "scientificName", "scientificNameAuthorship",
            "taxonRank", "taxonomicStatus", "namePublishedIn", "genus", "specificEpithet",
        ]
        /// Headers that say nothing true: the importer must go by meta.xml.
        static let misleadingHeader = ["a", "b", "c", "scientificNameAuthorship", "scientificName", "g", "h", "i", "j", "k"]

        static let taxa = tsv([
            misleadingHeader,
            ["1", "", "", "Animalia", "", "kingdom", "accepted", "", "", ""],  // line 2
            ["2", "1", "", "Chordata", "", "phylum", "accepted", "", "", ""],
            ["3", "2", "", "Aves", "", "class", "accepted", "", "", ""],
            ["4", "3", "", "Suliformes", "", "order", "accepted", "", "", ""],
            ["5", "4", "", "Sulidae", "", "family", "accepted", "", "", ""],
            ["6", "5", "", "Sulinae", "", "subfamily", "accepted", "", "", ""],  // folded
            ["7", "6", "", "Morus", "Vieillot, 1816", "genus", "accepted", "", "", ""],
            ["8", "7", "8", "Morus bassanus (Linnaeus, 1758)", "(Linnaeus, 1758)", "species", "accepted", "Syst. Nat. ed. 10", "Morus", "bassanus"],
            ["9", "8", "", "Morus bassanus hebridensis", "", "subspecies", "accepted", "", "", ""],  // below species
            ["10", "", "8", "Sula bassana", "", "species", "synonym", "", "", ""],
            ["11", "7", "", "Morus capensis", "", "species", "doubtful", "", "", ""],
            ["12", "99", "", "Orphanus", "", "genus", "accepted", "", "", ""],  // line 13: parent missing
            ["13", "", "404", "Ghostus ghostus", "", "species", "synonym", "", "", ""],  // line 14: accepted id points at nothing
            ["8", "7", "", "Morus duplicatus", "", "species", "accepted", "", "", ""],  // line 15: duplicate id
            ["14", "7", "", "", "", "species", "accepted", "", "Morus", "serrator"],  // empty scientificName
            ["15", "17", "", "Cyclus primus", "", "genus", "accepted", "", "", ""],  // lines 17-18: a cycle
            ["17", "15", "", "Cyclus secundus", "", "genus", "accepted", "", "", ""],
        ])

        static let vernacular = tsv([
            ["id", "name", "lang", "preferred"],
            ["8", "Northern Gannet", "en", "true"],
            ["8", "Basstölpel", "deu", ""],
            ["8", "Sümsük kuşu", "Turkish", ""],
            ["8", "Fou de Bassan", "fre", ""],
            ["8", "Qa'ghom", "Klingon", ""],
            ["10", "Solan goose", "en", ""],  // through the synonym to its accepted taxon
            ["404", "Nobody", "en", ""],
        ])

        static let files: [String: String] = [
            "meta.xml": dwcaMeta(
                coreTerms: coreTerms,
                extensions: [
                    ("http://rs.gbif.org/terms/1.0/VernacularName", "vernacular.txt", ["taxonID", "vernacularName", "language", "isPreferredName"]),
                    ("http://rs.gbif.org/terms/1.0/Distribution", "distribution.txt", ["taxonID", "locality"]),
                ]),
            "taxa.txt": taxa,
            "vernacular.txt": vernacular,
            "distribution.txt": tsv([["id", "where"], ["8", "North Atlantic"], ["11", "South Africa"]]),
        ]

        static func check(_ output: DwCAImporter.Output, file: String) throws {
            let result = output.result
            let names = Set(result.taxa.map(\.scientificName))
            #expect(names == ["Animalia", "Chordata", "Aves", "Suliformes", "Sulidae", "Morus", "Morus bassanus", "Morus capensis", "Orphanus", "Morus serrator", "Cyclus primus", "Cyclus secundus"])
            #expect(output.counts.belowSpecies == 1)
            #expect(output.counts.folded == 1)
            #expect(output.counts.synonyms == 1)
            #expect(output.counts.commonNames == 6)
            #expect(output.counts.skippedTables == ["Distribution": 2])

            let gannet = try #require(result.taxon("Morus bassanus"))
            #expect(gannet.author == "(Linnaeus, 1758)")
            #expect(gannet.year == 1758)
            #expect(gannet.rank == .species)
            #expect(gannet.references == [SourceReference("Syst. Nat. ed. 10", type: "taxonomy")])
            #expect(gannet.names.contains(SourceName("Sula bassana", lang: "la", type: .synonym)))
            let common = Dictionary(grouping: gannet.names.filter { $0.type == .common }, by: \.lang).mapValues { $0.map(\.name) }
            #expect(common == ["en": ["Northern Gannet", "Solan goose"], "de": ["Basstölpel"], "tr": ["Sümsük kuşu"], "fr": ["Fou de Bassan"], "und": ["Qa'ghom"]])
            #expect(gannet.names.first { $0.name == "Northern Gannet" }?.isPreferred == true)
            #expect(result.taxon("Morus capensis")?.status == .doubtful)
            #expect(result.taxon("Morus serrator")?.rank == .species)

            // The genus hangs from the family: the subfamily between them is folded.
            let byKey = Dictionary(uniqueKeysWithValues: result.taxa.map { ($0.key, $0) })
            let morus = try #require(result.taxon("Morus"))
            #expect(morus.parentKey.flatMap { byKey[$0]?.scientificName } == "Sulidae")
            #expect(morus.year == 1816)

            let messages = result.skipped.map(\.description)
            #expect(messages.contains { $0.hasPrefix("\(file):15: duplicate id 8") }, "\(messages)")
            #expect(messages.contains { $0.hasPrefix("\(file):14: synonym Ghostus ghostus points at id 404") }, "\(messages)")
            #expect(messages.contains { $0.contains("common name 'Nobody' points at id 404") }, "\(messages)")

            // The assembler reports the missing parent and the cycle with the file and line, and keeps the rest.
            let assembled = try TaxonomyAssembler().assemble([result])
            let issues = assembled.issues.map(\.description)
            #expect(issues.contains { $0.hasPrefix("\(file):13: Orphanus has a parent that does not exist") }, "\(issues)")
            #expect(issues.contains { $0.contains("is on a parent cycle") && $0.hasPrefix(file) }, "\(issues)")
            #expect(Set(assembled.taxa.map(\.scientificName)) == names.subtracting(["Orphanus", "Cyclus primus", "Cyclus secundus"]))
            #expect(throws: SourceIssue.self) { try TaxonomyAssembler(policy: .fail).assemble([result]) }
        }

        @Test func folderThroughMetaXML() throws {
            let fixture = try ChecklistFixture()
            defer { fixture.remove() }
            let url = try fixture.folder("gannets", Self.files)
            try Self.check(try DwCAImporter().parse(url), file: "taxa.txt")
        }

        @Test func zipThroughMetaXML() throws {
            let fixture = try ChecklistFixture()
            defer { fixture.remove() }
            let url = try fixture.zip("gannets.zip", Self.files)
            try Self.check(try DwCAImporter().parse(url), file: "gannets.zip:taxa.txt")
        }

        @Test func classificationColumnsWhenThereAreNoParentIDs() throws {
            let fixture = try ChecklistFixture()
            defer { fixture.remove() }
            // Semicolons, quotes, a BOM and a header of lies, as in real archives.
            let meta = dwcaMeta(coreTerms: ["taxonID", "kingdom", "order", "family", "genus", "specificEpithet", "scientificName", "taxonRank"], separator: ";", quote: "&quot;")
            let taxa = "\u{FEFF}x;y;z;w;v;u;t;s\n"
                + "1;Animalia;Araneae;Agelenidae;Agelena;labyrinthica;;\n"
                + "2;Animalia;Araneae;Agelenidae;Agelena;gracilens;\"Agelena gracilens\";species\n"
                + "3;Animalia;Araneae;Agelenidae;Agelena;;Agelena;genus\n"
                + "4;Animalia;Araneae;Lycosidae;Pardosa;\"lug;ubris\";;\n"
                + "5;;;;;;;\n"
            let url = try fixture.folder("spiders", ["meta.xml": meta, "taxa.txt": taxa])
            let output = try DwCAImporter().parse(url)
            let result = output.result
            #expect(result.skipped.map(\.description) == ["taxa.txt:6: no scientific name, genus or epithet; row skipped"])
            let assembled = try TaxonomyAssembler().assemble([result])
            #expect(assembled.issues == result.skipped, "\(assembled.issues)")  // nothing more
            func lineage(_ name: String) -> [String] {
                guard var i = assembled.taxa.firstIndex(where: { $0.scientificName == name }) else { return [] }
                var out = [assembled.taxa[i].scientificName]
                while assembled.parentIndex[i] >= 0 {
                    i = Int(assembled.parentIndex[i])
                    out.insert(assembled.taxa[i].scientificName, at: 0)
                }
                return out
            }
            #expect(lineage("Agelena labyrinthica") == ["Animalia", "Araneae", "Agelenidae", "Agelena", "Agelena labyrinthica"])
            #expect(lineage("Agelena gracilens") == ["Animalia", "Araneae", "Agelenidae", "Agelena", "Agelena gracilens"])
            #expect(lineage("Pardosa lug;ubris") == ["Animalia", "Araneae", "Lycosidae", "Pardosa", "Pardosa lug;ubris"])
            #expect(assembled.taxa.filter { $0.scientificName == "Agelena" }.count == 1)
            #expect(assembled.taxa.count == 9)
            #expect(output.counts.created == 5)
        }

        @Test func badArchivesAreReportedWithTheirFile() throws {
            let fixture = try ChecklistFixture()
            defer { fixture.remove() }
            func issues(_ name: String, _ files: [String: String]) throws -> [String] {
                let output = try DwCAImporter().parse(try fixture.folder(name, files))
                #expect(output.result.taxa.isEmpty)
                #expect(throws: SourceIssue.self) { try TaxonomyAssembler(policy: .fail).assemble([output.result]) }
                return output.result.skipped.map(\.description)
            }
            let good = dwcaMeta(coreTerms: ["taxonID", "scientificName"])
            #expect(try issues("no-meta", ["taxa.txt": "1\tAves\n"]) == ["no-meta:0: meta.xml is missing; the archive is skipped"])
            let malformed = try issues("malformed", ["meta.xml": "<archive>\n<core rowType='Taxon'>\n</archive>", "taxa.txt": ""])
            #expect(malformed.count == 1 && malformed[0].hasPrefix("meta.xml:3: malformed XML"), "\(malformed)")
            #expect(try issues("no-core", ["meta.xml": good]) == ["meta.xml:0: Taxon file taxa.txt is missing from the archive; the archive is skipped"])
            let delimiter = try issues("delimiter", ["meta.xml": dwcaMeta(coreTerms: ["taxonID"], separator: "::"), "taxa.txt": ""])
            #expect(delimiter == ["meta.xml:3: unknown delimiter '::' in <core> (expected one character such as \\t , ; |); the archive is skipped"])
            let occurrence = good.replacingOccurrences(of: "terms/Taxon", with: "terms/Occurrence")
            #expect(try issues("occurrence", ["meta.xml": occurrence, "taxa.txt": ""]) == ["meta.xml:0: the core's rowType is Occurrence, not Taxon; the archive is skipped"])
        }

        @Test func zipEntryNamedDotDotNeverBecomesAPath() throws {
            let fixture = try ChecklistFixture()
            defer { fixture.remove() }
            let meta = dwcaMeta(coreTerms: ["taxonID", "scientificName"]).replacingOccurrences(of: "<location>taxa.txt", with: "<location>../x")
            // The zip sits one folder down, so the folder above it is the fixture's own too.
            try FileManager.default.createDirectory(at: fixture.directory.url.appendingPathComponent("inner"), withIntermediateDirectories: false)
            let url = try fixture.zip("inner/evil.zip", [("meta.xml", Data(meta.utf8)), ("../x", Data("1\tAves\n".utf8)), ("/etc/y", Data("z".utf8))])
            let archive = try ChecklistArchive(url: url)
            #expect(archive.entries == ["meta.xml"])
            #expect(Set(archive.refusedEntries) == ["../x", "/etc/y"])
            let output = try DwCAImporter().parse(url)
            #expect(output.result.taxa.isEmpty)
            let messages = output.result.skipped.map(\.description)
            #expect(messages.contains("evil.zip:0: zip entry '../x' is not a plain relative path; ignored"), "\(messages)")
            #expect(messages.contains { $0.contains("file location '../x' of Taxon is not a plain relative path") }, "\(messages)")
            // Nothing appeared beside the zip or above it.
            let beside = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            #expect(beside == ["evil.zip"])
            let above = try FileManager.default.contentsOfDirectory(atPath: fixture.directory.url.path)
            #expect(above == ["inner"])
        }

        @Test func zipBombIsRefused() throws {
            let fixture = try ChecklistFixture()
            defer { fixture.remove() }
            let meta = dwcaMeta(coreTerms: ["taxonID", "scientificName"])
            let bomb = Data(repeating: 0x0A, count: 8 << 20)  // 8 MiB of blank lines deflate to a few KiB
            let url = try fixture.zip("bomb.zip", [("meta.xml", Data(meta.utf8)), ("taxa.txt", bomb)])
            var limits = ChecklistArchive.Limits()
            limits.maxRatio = 100
            let byRatio = try DwCAImporter(limits: limits).parse(url)
            #expect(byRatio.result.taxa.isEmpty)
            #expect(byRatio.result.skipped.map(\.description).contains { $0.hasPrefix("bomb.zip:taxa.txt inflates") && $0.contains("refused as a zip bomb") }, "\(byRatio.result.skipped)")

            var small = ChecklistArchive.Limits()
            small.maxDecompressedBytes = 1 << 20
            let bySize = try DwCAImporter(limits: small).parse(url)
            #expect(bySize.result.skipped.map(\.description).contains { $0.contains("more than the limit of 1048576; refused as a zip bomb") }, "\(bySize.result.skipped)")

            // Streaming counts what really comes out, whatever the header says.
            var streamed = ChecklistArchive.Limits()
            streamed.maxDecompressedBytes = (8 << 20) + 100  // the entry fits; with meta.xml read first, the archive does not
            streamed.maxRatio = 1 << 40
            let archive = try ChecklistArchive(url: url, limits: streamed)
            _ = try archive.read("meta.xml")
            let source = try archive.open("taxa.txt")
            var sink: [UInt8] = []
            #expect(throws: SourceIssue.self) { while try source.read(into: &sink, max: 1 << 16) > 0 { sink.removeAll(keepingCapacity: true) } }
        }

        @Test func latin1CoreIsReadAsText() throws {
            let fixture = try ChecklistFixture()
            defer { fixture.remove() }
            let meta = dwcaMeta(coreTerms: ["taxonID", "scientificName", "taxonRank"]).replacingOccurrences(of: "encoding=\"UTF-8\" fields", with: "encoding=\"ISO-8859-1\" fields")
            let url = try fixture.folder("latin", ["meta.xml": meta])
            try Data([0x78, 0x0A] + Array("1\tAbra\tgenus\n2\tAbra cadabr".utf8) + [0xE6] + Array("\tspecies\n".utf8)).write(to: url.appendingPathComponent("taxa.txt"))
            let output = try DwCAImporter().parse(url)
            #expect(output.result.taxa.map(\.scientificName) == ["Abra", "Abra cadabræ"])
        }
    }
}

extension ImporterTests {
    /// Archives as they really are: an accepted-name column that holds something else (basionym
    /// links), statuses against pointers, and synonym chains that loop. A row's own status wins;
    /// a loop keeps its rows as accepted where their status allows and is reported once.
    @Suite struct BrokenSynonymChains {
        static let terms = ["taxonID", "parentNameUsageID", "acceptedNameUsageID", "scientificName", "taxonRank", "taxonomicStatus"]
        static let taxa = tsv([
            ["id", "parent", "accepted", "name", "rank", "status"],
            ["1", "", "", "Animalia", "kingdom", "accepted"],
            ["2", "1", "", "Chordata", "phylum", "accepted"],
            ["3", "2", "", "Mammalia", "class", "accepted"],
            ["4", "3", "", "Carnivora", "order", "accepted"],
            ["5", "4", "", "Felidae", "family", "accepted"],
            ["6", "5", "", "Panthera", "genus", "accepted"],
            // Basionym links in the accepted column: the accepted species names its basionym, and
            // the basionym names itself.
            ["7", "6", "8", "Panthera leo", "species", "accepted"],  // line 8
            ["8", "", "8", "Felis leo", "species", "synonym"],  // line 9
            // Two synonyms pointing at each other: nothing to keep, reported once.
            ["9", "", "10", "Leo nubicus", "species", "synonym"],  // line 10
            ["10", "", "9", "Felis nubica", "species", "synonym"],
            // Two rows whose status says nothing, pointing at each other: both kept as accepted.
            ["11", "6", "12", "Panthera spelaea", "species", ""],  // line 12
            ["12", "6", "11", "Panthera atrox", "species", ""],
            // A status-less row leading into the synonyms' loop: kept as accepted.
            ["13", "6", "9", "Panthera youngi", "species", ""],
            // A synonym reaching a row of the broken loop: a synonym of it.
            ["14", "", "11", "Felis spelaea", "species", "synonym"],
            // A status-less row pointing at an accepted one: a synonym, as ever.
            ["15", "", "7", "Leo leo", "species", ""],
            // An accepted row and its synonym pointing at each other: the status wins.
            ["16", "6", "17", "Panthera pardus", "species", "accepted"],
            ["17", "", "16", "Felis pardus", "species", "synonym"],
        ])

        @Test func theStatusWinsAndLoopsAreBrokenOnce() throws {
            let fixture = try ChecklistFixture()
            defer { fixture.remove() }
            let url = try fixture.folder("basionyms", ["meta.xml": dwcaMeta(coreTerms: Self.terms), "taxa.txt": Self.taxa])
            let output = try DwCAImporter().parse(url)
            let result = output.result
            #expect(Set(result.taxa.map(\.scientificName)) == [
                "Animalia", "Chordata", "Mammalia", "Carnivora", "Felidae", "Panthera",
                "Panthera leo", "Panthera spelaea", "Panthera atrox", "Panthera youngi", "Panthera pardus",
            ])
            func synonyms(_ name: String) -> [String] { result.taxon(name)?.names.filter { $0.type == .synonym }.map(\.name) ?? [] }
            #expect(synonyms("Panthera leo") == ["Leo leo"])
            #expect(synonyms("Panthera spelaea") == ["Felis spelaea"])
            #expect(synonyms("Panthera pardus") == ["Felis pardus"])
            #expect(output.counts.keptFromLoops == 3)
            #expect(output.counts.synonyms == 3)

            let messages = result.skipped.map(\.description)
            #expect(messages == [
                "taxa.txt:8: 2 rows have the status accepted but name another row as their accepted name (the column may hold something else, such as basionyms); kept as accepted, as the status says",
                "taxa.txt:9: synonym Felis leo names no accepted name; skipped",
                "taxa.txt:10: synonyms point at each other in a loop (ids 9 → 10 → 9): 1 kept as accepted (their status does not say synonym), 2 names skipped (their status says synonym)",
                "taxa.txt:12: synonyms point at each other in a loop (ids 11 → 12 → 11): 2 kept as accepted (their status does not say synonym)",
            ], "\(messages)")
            #expect(result.skipped.map(\.kind) == [.statusAgainstPointer, .danglingPointer, .synonymChainBroken, .synonymChainBroken])
            // What was left out: the basionym with no accepted name and the two looping synonyms.
            #expect(result.skipped.rowsSkipped == 3)
            #expect(result.rowsRead == 17)

            let assembled = try TaxonomyAssembler().assemble([result])
            #expect(assembled.issues == result.skipped, "\(assembled.issues)")  // nothing more
            #expect(assembled.sources == [TaxonomyAssembler.SourceTally(rowsRead: 17, rowsSkipped: 3, taxaKept: 11, acceptedKept: 11)])
            #expect(try BuildCompleteness().check(assembled, labels: ["basionyms"]).isEmpty)
        }

        /// The real archive of issue 37: every row points at another in the accepted column and
        /// the status column is empty, so every chain loops. Before, nothing was kept.
        @Test func anArchiveOfLoopsAloneIsNotLeftEmpty() throws {
            let fixture = try ChecklistFixture()
            defer { fixture.remove() }
            var rows = [["id", "parent", "accepted", "name", "rank", "status"], ["1", "", "2", "Animalia", "kingdom", ""], ["2", "1", "1", "Chordata", "phylum", ""]]
            for i in 0..<20 {
                let id = 100 + i, partner = i % 2 == 0 ? id + 1 : id - 1
                rows.append(["\(id)", "2", "\(partner)", "Genus\(i) species", "species", ""])
            }
            let url = try fixture.folder("loops", ["meta.xml": dwcaMeta(coreTerms: Self.terms), "taxa.txt": tsv(rows)])
            let output = try DwCAImporter().parse(url)
            #expect(output.result.taxa.count == 22)
            #expect(output.counts.keptFromLoops == 22)
            #expect(output.result.skipped.count == 11)
            #expect(output.result.skipped.allSatisfy { $0.kind == .synonymChainBroken && $0.rows == 0 })
            let assembled = try TaxonomyAssembler().assemble([output.result])
            #expect(assembled.taxa.count == 22)
        }

        /// An archive of synonyms that loop and nothing else keeps no taxon: the build is refused,
        /// even with `allowPartial`.
        @Test func nothingAcceptedIsRefusedEvenWhenPartialIsAllowed() throws {
            let fixture = try ChecklistFixture()
            defer { fixture.remove() }
            let rows = [["id", "parent", "accepted", "name", "rank", "status"], ["1", "", "2", "Felis leo", "species", "synonym"], ["2", "", "1", "Leo leo", "species", "synonym"]]
            let url = try fixture.folder("synonyms", ["meta.xml": dwcaMeta(coreTerms: Self.terms), "taxa.txt": tsv(rows)])
            let assembled = try TaxonomyAssembler().assemble([try DwCAImporter().parse(url).result])
            #expect(assembled.taxa.isEmpty)
            #expect(assembled.sources.first?.rowsSkipped == 2)
            for allow in [false, true] {
                #expect {
                    _ = try BuildCompleteness(allowPartial: allow).check(assembled, labels: ["synonyms"])
                } throws: { error in
                    (error as? IncompleteBuild)?.problems == ["no accepted taxon is left", "synonyms yields no taxa (2 rows read, 2 skipped)"]
                        && (error as? IncompleteBuild)?.acceptable == false
                }
            }
        }
    }
}
