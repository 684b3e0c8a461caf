import Foundation
import GRDB
import Testing
@testable import STOLEngine
import STOLProtocol

/// The trait translation table: its format, how values are composed from their parts, and how
/// much of the embedded database it translates.
@Suite struct TraitTranslationsTests {
    static let table = TraitTranslations.shipped

    static func value(_ english: String, _ lang: String, unit: String? = nil) -> STOLProtocol.Trait {
        table.localized(STOLProtocol.Trait(key: "habitat", value: english, unit: unit), to: lang)
    }

    @Test func theShippedTableReadsAndHoldsEveryKind() {
        let counts = Self.table.counts
        for kind in TraitTranslations.Kind.allCases { #expect((counts[kind.rawValue] ?? 0) > 0, "\(kind)") }
        #expect((counts["term"] ?? 0) > 300)
    }

    @Test func aMalformedTableIsRefusedWithItsLine() {
        let header = "kind\ten\tde\tfr\tes\n"
        #expect(throws: TraitTranslations.FormatError(line: 2, detail: "expected 5 tab-separated fields, found 3")) {
            try TraitTranslations(tsv: header + "term\tfish\tFische\n")
        }
        #expect(throws: TraitTranslations.FormatError(line: 3, detail: "unknown kind noun")) {
            try TraitTranslations(tsv: header + "# a comment\nnoun\tfish\tFische\tpoissons\tpeces\n")
        }
        #expect(throws: TraitTranslations.FormatError(line: 3, detail: "term \"Fish\" is listed twice")) {
            try TraitTranslations(tsv: header + "term\tfish\tFische\tpoissons\tpeces\nterm\tFish\tFisch\tpoisson\tpez\n")
        }
        #expect(throws: TraitTranslations.FormatError(line: 2, detail: "an empty field")) {
            try TraitTranslations(tsv: header + "term\tfish\t\tpoissons\tpeces\n")
        }
    }

    @Test func valuesAreComposedFromKnownParts() {
        let cases: [(String, String, String)] = [
            ("carnivore (large hoofed mammals)", "de", "Fleischfresser (große Huftiere)"),
            ("carnivore (large hoofed mammals)", "es", "carnívoro (grandes ungulados)"),
            // A list keeps its source's shape: commas only, or "and" before the last.
            ("omnivore (insects, nuts, seeds)", "de", "Allesfresser (Insekten, Nüsse, Samen)"),
            ("fish, crustaceans and squid", "fr", "poissons, crustacés et calmars"),
            ("mainly fruit, also leaves and insects", "de", "vor allem Früchte, auch Blätter und Insekten"),
            // "of" and places, the shared preposition written once where the language does.
            ("woodland of Europe and Asia", "de", "Wald in Europa und Asien"),
            ("woodland of Europe and Asia", "fr", "bois d'Europe et d'Asie"),
            ("woodland of Europe and Asia", "es", "bosque de Europa y Asia"),
            ("savanna of Africa south of the Sahara", "de", "Savanne in Afrika südlich der Sahara"),
            // Segments, measurements with a decimal comma, a term before a measurement.
            ("photosynthetic; reproduces by spores", "fr", "photosynthétique; se reproduit par des spores"),
            ("up to about 1.5 m", "de", "bis etwa 1,5 m"),
            ("shell 10–15 cm across", "es", "concha 10–15 cm de diámetro"),
            ("up to about 30 years", "fr", "jusqu'à environ 30 ans"),
            ("Palearctic, Indomalaya", "de", "Paläarktis, Indomalaiische Region"),
        ]
        for (english, lang, expected) in cases {
            let trait = Self.value(english, lang)
            #expect(trait.value == expected, "\(english) in \(lang)")
            #expect(trait.translated == true, "\(english) in \(lang)")
        }
    }

    @Test func aValueWithAnUnknownPartIsLeftWhole() {
        for english in ["savanna, grassland and open woodland of Africa; Gir Forest in India", "woodland of Atlantis", "carnivore (dragons)", "about 3 furlongs"] {
            let trait = Self.value(english, "de")
            #expect(trait.value == english && trait.translated == false, "\(english)")
        }
        // Numbers with a unit need no translation; English needs none; other languages get none.
        #expect(Self.value("1.4–2.5", "fr", unit: "m").translated == true)
        #expect(Self.value("1.4–2.5", "fr", unit: "m").value == "1.4–2.5")
        #expect(Self.value("savanna", "en").translated == true && Self.value("savanna", "en").label == "habitat")
        #expect(Self.value("savanna", "it").translated == false && Self.value("savanna", "it").value == "savanna")
        #expect(Self.value("savanna", "es-MX").value == "sabana")
    }

    /// The share of the embedded database's trait values each language gets, printed for the
    /// README's table, with a floor so the table cannot lose ground unnoticed.
    @Test func shareOfTheEmbeddedDatabaseTranslated() throws {
        let queue = try DatabaseQueue(path: try Engine.embeddedDatabaseURL().path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        let traits = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT trait_key, trait_value, unit FROM traits").map { STOLProtocol.Trait(key: $0[0], value: $0[1], unit: $0[2]) }
        }
        #expect(traits.count > 1000)
        for lang in TraitTranslations.languages {
            let localized = traits.map { Self.table.localized($0, to: lang) }
            let share = Double(localized.filter { $0.translated == true }.count) / Double(traits.count)
            let byKey = Dictionary(grouping: localized, by: \.key).mapValues { list in "\(list.filter { $0.translated == true }.count)/\(list.count)" }
            print("trait values translated, \(lang): \(String(format: "%.1f", share * 100)) % of \(traits.count); by key: \(byKey.sorted { $0.key < $1.key })")
            #expect(share > 0.5, "\(lang): \(share)")
            if lang == "de" { #expect(localized.allSatisfy { $0.label != $0.key }, "every key of the embedded database has a German label") }
        }
    }
}
