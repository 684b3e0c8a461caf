import Testing

@testable import STOLEngine

@Suite struct QueryRewritesTests {
    @Test func britishAndAmericanSpellingsAlternateBeforeEndings() {
        #expect(QueryRewrites.otherSpelling(of: "colour") == "color")
        #expect(QueryRewrites.otherSpelling(of: "color") == "colour")
        #expect(QueryRewrites.otherSpelling(of: "armoured") == "armored")
        #expect(QueryRewrites.otherSpelling(of: "armored") == "armoured")
        #expect(QueryRewrites.otherSpelling(of: "colours") == "colors")
        #expect(QueryRewrites.otherSpelling(of: "flavouring") == "flavoring")
        #expect(QueryRewrites.otherSpelling(of: "harbor") == "harbour")
        #expect(QueryRewrites.otherSpelling(of: "our") == nil, "no stem before the ending")
        #expect(QueryRewrites.otherSpelling(of: "lion") == nil)
        #expect(QueryRewrites.otherSpelling(of: "frog") == nil)
    }
}
