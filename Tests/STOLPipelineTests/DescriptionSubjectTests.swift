import Foundation
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

extension ImporterTests {
    /// Whether a linked text is about its taxon. The texts are the tests' own words, shaped like the
    /// real introductions' openings.
    @Suite struct DescriptionSubjectCheck {
        /// A taxon's names and lineage, and a judge of texts about it.
        struct Taxon {
            var subject: DescriptionSubject.Subject
            var ancestors: [DescriptionSubject.Ancestor]
            var lineage: Set<String>

            func judge(title: String, text: String) -> DescriptionSubject.Verdict {
                DescriptionSubject.judge(title: title, text: text, subject: subject, ancestors: { ancestors }, lineage: { lineage })
            }
        }

        static func taxon(_ scientific: [String], common: [String] = [], ancestors: [(String, Rank?)] = [], lineage: [String] = []) -> Taxon {
            Taxon(
                subject: .init(scientific: scientific.map(DescriptionSubject.words), common: common.map(DescriptionSubject.words)),
                ancestors: ancestors.map { ([DescriptionSubject.words($0.0)], $0.1) }, lineage: Set(lineage))
        }

        static let cat = taxon(["Felis catus"], common: ["domestic cat", "Cat"], ancestors: [("Felis", .genus), ("Felidae", .family)],
                               lineage: ["felis", "felidae", "mammalia", "metazoa", "animalia"])

        @Test func aWrongLinkIsRefused() {
            let text = "Wildcats are two small wild cat species of Europe, Africa and Asia: Felis silvestris and F. lybica."
            #expect(Self.cat.judge(title: "Wildcat", text: text) == .notNamed)
        }

        @Test func titlesNameTheTaxonInEitherNumber() {
            #expect(Self.cat.judge(title: "Cat", text: "…") == .title)
            #expect(Self.cat.judge(title: "Domestic cats", text: "…") == .title)
            let gannets = Self.taxon(["Morus"], common: ["gannets"], lineage: ["aves", "sulidae"])
            #expect(gannets.judge(title: "Gannet", text: "Gannets are seabirds.") == .title)
            let hybrid = Self.taxon(["Musa x paradisiaca"])
            #expect(hybrid.judge(title: "Musa × paradisiaca", text: "") == .title)
        }

        @Test func openingsNameTheTaxon() {
            let rudderfish = Self.taxon(["Psenopsis anomala"])
            #expect(rudderfish.judge(title: "Pacific rudderfish", text: "The Pacific rudderfish (Psenopsis anomala) is a fish.") == .opening)
            // A one-word common name counts only near the start: then it is the subject.
            #expect(Self.cat.judge(title: "House cat", text: "The cat is a small carnivore.") == .opening)
            #expect(Self.cat.judge(title: "House cat", text: "Cats are small carnivores.") == .opening)
            let late = "Small animals live in towns, among them the cat."
            #expect(Self.cat.judge(title: "Town animals", text: late) == .notNamed)
            // Only the opening counts.
            let far = String(repeating: "word ", count: 60) + "Felis catus"
            #expect(Self.cat.judge(title: "Something", text: far) == .notNamed)
        }

        @Test func qualifiersMustFitTheLineage() {
            let plant = Self.taxon(["Perotis"], lineage: ["poaceae", "viridiplantae", "plantae"])
            #expect(plant.judge(title: "Perotis (beetle)", text: "Perotis is a genus of beetles.") == .otherGroup("beetle"))
            #expect(plant.judge(title: "Perotis (plant)", text: "Perotis is a genus of grasses.") == .title)
            // Unknown qualifiers are not checked.
            #expect(plant.judge(title: "Perotis (genus)", text: "") == .title)
        }

        @Test func anAncestorsArticleIsBroader() {
            let text = "Felis is a genus of small cats."
            #expect(Self.cat.judge(title: "Felis", text: text) == .broader(.genus))
            #expect(DescriptionSubject.splitQualifier("Morus (plant)") == ("Morus", "plant"))
            #expect(DescriptionSubject.splitQualifier("Wolf") == ("Wolf", nil))
        }
    }

    /// The generic descriptions table: header-driven, bad lines reported with file and line, a
    /// malformed or mislabelled file used not at all.
    @Suite struct DescriptionsTable {
        static func read(_ text: String, defaults: DescriptionsFile.Defaults = .init()) throws -> DescriptionsFile.Output {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            try dir.write("d.tsv", text)
            return try DescriptionsFile(defaults: defaults).read(dir.url.appendingPathComponent("d.tsv"))
        }

        @Test func readsEveryColumnByHeader() throws {
            let output = try Self.read("""
                lang\tscientific_name\ttext\tlicense\tsource_url\tsource_title
                en\tPanthera leo\tA big cat.\tCC0 1.0\thttps://example.org/lion\tLion
                de\tPanthera leo\tEine große Katze.\t\t\t

                """, defaults: .init(sourceName: "Fixture", license: "CC BY 4.0"))
            #expect(!output.refused && output.issues.isEmpty)
            #expect(output.records.map(\.subject) == [.scientificName("Panthera leo"), .scientificName("Panthera leo")])
            #expect(output.records[0].description == SourceDescription(
                lang: "en", text: "A big cat.", sourceTitle: "Lion", sourceURL: "https://example.org/lion", license: "CC0 1.0", sourceName: "Fixture"))
            #expect(output.records[1].description.license == "CC BY 4.0")
            #expect(output.records[1].location == SourceLocation(file: "d.tsv", line: 3))
        }

        @Test func badLinesAreReportedWithTheirLine() throws {
            let output = try Self.read("""
                taxon_id\tlang\ttext
                9612\ten\tThe wolf.
                9612\tEnglish\tThe wolf again.
                x\ten\tNot an id.
                9615\ten\tThe dog.
                9616\ten\tA fox.
                9612\ten\tA second text in the same language.

                """)
            #expect(!output.refused)
            #expect(output.records.map(\.subject) == [.taxonID(9612), .taxonID(9615), .taxonID(9616)])
            let lines = output.issues.map { $0.location?.line ?? 0 }
            #expect(lines == [3, 4, 7])
            #expect(output.issues[0].description.hasPrefix("d.tsv:3: lang 'English' is not a language tag"))
        }

        @Test func malformedAndMislabelledFilesAreNotUsed() throws {
            let unknown = try Self.read("scientific_name\tlanguage\ttext\nPanthera leo\ten\tA cat.\n")
            #expect(unknown.refused && unknown.records.isEmpty)
            #expect(unknown.issues.first?.description.hasPrefix("d.tsv:1: unknown column 'language'") == true)
            let keyless = try Self.read("lang\ttext\nen\tA cat.\n")
            #expect(keyless.refused && keyless.issues.first?.location?.line == 1)
            // Columns swapped under their headers: most lines are bad.
            let swapped = try Self.read("scientific_name\ttext\tlang\nPanthera leo\ten\tA cat.\nPanthera tigris\ten\tA striped cat.\nLynx lynx\tA lynx.\ten\n")
            #expect(swapped.refused && swapped.records.isEmpty)
            #expect(swapped.issues.first?.description.contains("2 of 3 lines are bad") == true)
            let empty = try Self.read("")
            #expect(empty.refused)
        }
    }
}
