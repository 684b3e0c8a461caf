import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import Testing

@testable import STOLEngine

/// Search results write the same bytes `JSONEncoder` wrote before `JSONWritable`.
@Suite struct SearchResultJSONTests {
    @Test func resultsMatchTheEncoder() throws {
        var rng = SystemRandomNumberGenerator()
        let scores = [1.0, 0.95, 0.89999, 0.5, 0.2, 0.1, 0.43, 0.37991, 0.0, 0.00001]
        for i in 0..<300 {
            func maybe<T>(_ value: T) -> T? { Bool.random(using: &rng) ? value : nil }
            let result = SearchResult(
                id: Int64.random(in: 1..<(1 << 53), using: &rng), scientificName: TaxonJSONTests.strings[i % TaxonJSONTests.strings.count],
                disambiguation: maybe(Disambiguation(ancestorId: maybe(7), ancestorName: maybe("Aves"), ancestorRank: maybe(Rank.class), display: "Morus (genus in Aves)")),
                preferredCommonName: maybe(TaxonJSONTests.strings.randomElement(using: &rng)!), preferredCommonNameLang: maybe("fr"), matchedName: TaxonJSONTests.strings.randomElement(using: &rng)!,
                matchType: ["scientific", "common", "synonym", "fuzzy"].randomElement(using: &rng)!, matchedNameType: maybe("common"),
                editDistance: maybe(Int.random(in: 1...2, using: &rng)), matchTier: maybe(MatchTier.allCases.randomElement(using: &rng)!.rawValue),
                matchedLang: maybe("de"), rank: maybe(Rank.allCases.randomElement(using: &rng)!),
                conservationStatus: maybe(ConservationStatus.allCases.randomElement(using: &rng)!),
                status: TaxonStatus.allCases.randomElement(using: &rng)!, relevanceScore: scores[i % scores.count],
                sharedName: maybe(SharedName(name: "Koala", role: .group, namedFor: .init(id: 9, scientificName: "Phascolarctos cinereus", rank: .species),
                                             group: nil, display: "Koala (family Phascolarctidae, named for Phascolarctos cinereus)")))
            #expect(TaxonJSONTests.fast(result) == (try TaxonJSONTests.viaEncoder(result)), "\(result)")
        }
    }
}
