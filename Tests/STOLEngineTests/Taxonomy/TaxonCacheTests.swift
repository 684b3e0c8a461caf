import STOLProtocol
import Testing

@testable import STOLEngine

@Suite struct TaxonCacheTests {
    static func taxon(_ id: Int64, name: String = "Panthera leo") -> Taxon {
        Taxon(id: id, parentId: nil, rank: .species, scientificName: name, author: nil, year: nil, status: .accepted,
              conservationStatus: nil, preferredCommonName: nil, childCount: 0)
    }

    @Test func keepsEachTaxonPerLanguage() {
        let cache = TaxonCache()
        #expect(cache.taxon(1, lang: "en") == nil)
        cache.keep(Self.taxon(1), lang: "en")
        #expect(cache.taxon(1, lang: "en") == Self.taxon(1))
        #expect(cache.taxon(1, lang: "de") == nil, "another language is another answer")
        cache.keep(Self.taxon(1, name: "Panthera leo (de)"), lang: "de")
        #expect(cache.taxon(1, lang: "de")?.scientificName == "Panthera leo (de)")
        #expect(cache.taxon(1, lang: "en")?.scientificName == "Panthera leo")
    }

    @Test func theOldestMakesRoomPastTheCapacity() {
        let cache = TaxonCache()
        for id in 0..<Int64(TaxonCache.capacity) { cache.keep(Self.taxon(id), lang: "en") }
        // Keeping one already there again takes no room.
        cache.keep(Self.taxon(0), lang: "en")
        #expect(cache.taxon(0, lang: "en") != nil)
        cache.keep(Self.taxon(-1), lang: "en")
        #expect(cache.taxon(0, lang: "en") == nil, "the first kept went first")
        #expect(cache.taxon(1, lang: "en") != nil)
        #expect(cache.taxon(-1, lang: "en") != nil)
        #expect(cache.taxon(Int64(TaxonCache.capacity) - 1, lang: "en") != nil)
        cache.keep(Self.taxon(-2), lang: "en")
        #expect(cache.taxon(1, lang: "en") == nil)
        #expect(cache.taxon(2, lang: "en") != nil)
    }
}
