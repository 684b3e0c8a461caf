import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import Testing

@testable import STOLEngine

/// The hand-written JSON of the browse answers is byte for byte what `JSONEncoder` writes.
@Suite struct TaxonJSONTests {
    /// What `ResultEncoding` wrote for every result before `JSONWritable`.
    static func viaEncoder<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        var bytes = [UInt8](try encoder.encode(value))
        JSONWriter.escapeLineSeparators(&bytes)
        return bytes
    }

    static func fast<T: JSONWritable>(_ value: T) -> [UInt8] {
        var out: [UInt8] = []
        value.writeJSON(into: &out)
        return out
    }

    static let strings = [
        "", "Panthera leo", "León", "Æ ø å ß", "\"quoted\" and \\backslash\\", "tab\there", "new\nline\r",
        "\u{01}\u{1F}\u{7F}", "a/b", "\u{2028}\u{2029}", "…–—€", "🦁🐯", "\u{E2}x", "日本語", "ـعربي",
    ]

    static func taxon(_ rng: inout SystemRandomNumberGenerator, _ i: Int) -> Taxon {
        func maybe<T>(_ value: T) -> T? { Bool.random(using: &rng) ? value : nil }
        return Taxon(
            id: Int64.random(in: 1..<(1 << 53), using: &rng), parentId: maybe(Int64.random(in: 1..<(1 << 53), using: &rng)),
            rank: maybe(Rank.allCases.randomElement(using: &rng)!), scientificName: strings[i % strings.count],
            author: maybe(strings.randomElement(using: &rng)!), year: maybe(Int.random(in: 1700...2026, using: &rng)),
            status: TaxonStatus.allCases.randomElement(using: &rng)!,
            conservationStatus: maybe(ConservationStatus.allCases.randomElement(using: &rng)!),
            preferredCommonName: maybe(strings.randomElement(using: &rng)!), preferredCommonNameLang: maybe(["en", "es", "pt-BR"].randomElement(using: &rng)!),
            childCount: maybe(Int.random(in: 0...50_000, using: &rng)))
    }

    @Test func taxaListsAndPagesMatchTheEncoder() throws {
        var rng = SystemRandomNumberGenerator()
        for i in 0..<500 {
            let t = Self.taxon(&rng, i)
            #expect(Self.fast(t) == (try Self.viaEncoder(t)), "\(t)")
        }
        let list = (0..<40).map { Self.taxon(&rng, $0) }
        #expect(Self.fast(["ancestors": list]) == (try Self.viaEncoder(["ancestors": list])))
        #expect(Self.fast(["roots": [Taxon]()]) == (try Self.viaEncoder(["roots": [Taxon]()])))
        for cursor in [nil, "eyJpZCI6MX0"] {
            let page = TaxonChildren(children: list, nextCursor: cursor)
            #expect((try JSONEncoding.encode(page)) == (try Self.viaEncoder(page)))
        }
    }

    @Test func detailsMatchTheEncoder() throws {
        var rng = SystemRandomNumberGenerator()
        for i in 0..<100 {
            let names = (0..<Int.random(in: 0...6, using: &rng)).map { j in
                TaxonName(name: Self.strings[(i + j) % Self.strings.count], lang: ["en", "es", "pt-BR", "la"][j % 4],
                          type: NameType.allCases.randomElement(using: &rng)!, isPreferred: Bool.random(using: &rng))
            }
            var translated = Trait(key: "diet", value: "Fleischfresser", unit: nil, source: nil)
            translated.label = Self.strings[(i + 5) % Self.strings.count]
            translated.translated = Bool.random(using: &rng)
            let other = SharedName.Other(id: 42, scientificName: Self.strings[(i + 1) % Self.strings.count], rank: Bool.random(using: &rng) ? .species : nil)
            let shared = SharedName(name: Self.strings[i % Self.strings.count], role: i % 2 == 0 ? .group : .member,
                                    namedFor: i % 2 == 0 ? other : nil, group: i % 2 == 0 ? nil : other, display: "Koala (family X)")
            var detail = TaxonDetail(
                taxon: Self.taxon(&rng, i), preferredCommonName: Bool.random(using: &rng) ? Self.strings[i % Self.strings.count] : nil,
                preferredCommonNameLang: Bool.random(using: &rng) ? "de" : nil,
                lineage: (0..<Int.random(in: 0...8, using: &rng)).map { Self.taxon(&rng, $0) },
                names: Dictionary(grouping: names, by: \.lang), synonyms: names.filter { $0.type == .synonym },
                traits: [Trait(key: "diet", value: Self.strings[i % Self.strings.count]), Trait(key: "habitat", value: "savanna"), translated],
                references: [Reference(citation: Self.strings[(i + 3) % Self.strings.count], url: Bool.random(using: &rng) ? "https://example.org/a?b=c" : nil, type: "taxonomy")],
                childCount: Int.random(in: 0...99, using: &rng))
            if i % 3 != 0 { detail.sharedName = shared }
            #expect(Self.fast(detail) == (try Self.viaEncoder(detail)))
        }
    }

    @Test func bulkLCAsMatchTheEncoder() throws {
        let batch = LCABatch(lcas: [1, nil, 9_007_199_254_740_991], distances: [0, nil, 42], source: "tree")
        #expect(Self.fast(batch) == (try Self.viaEncoder(batch)))
        let empty = LCABatch(lcas: [], distances: [], source: "sql")
        #expect(Self.fast(empty) == (try Self.viaEncoder(empty)))
    }

    /// Every string, also with U+2028/U+2029 and controls, parses back to itself.
    @Test func stringsRoundTrip() throws {
        for s in Self.strings + [String(repeating: "\u{2028}x\u{E2}\u{80}", count: 3)] {
            var out: [UInt8] = []
            JSONWriter.writeString(s, into: &out)
            #expect(!out.contains(0x0A) && !out.contains(0x0D))
            #expect(try JSONParser.parse(out) == .string(s))
        }
    }
}
