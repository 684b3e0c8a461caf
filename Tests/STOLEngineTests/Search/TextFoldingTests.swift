import Testing
@testable import STOLEngine

@Suite struct TextFoldingTests {
    @Test func foldsCaseDiacriticsUnderscoresAndSpaces() {
        #expect(TextFolding.fold("Panthera_leo") == "panthera leo")
        #expect(TextFolding.fold("  Löwe  ") == "lowe")
        #expect(TextFolding.fold("Éléphant d'Asie") == "elephant d'asie")
        #expect(TextFolding.fold("A\t B\nC") == "a b c")
        #expect(TextFolding.fold("") == "")
    }

    /// The ASCII fast path must agree with the general path on every ASCII input.
    @Test func asciiFastPathMatchesTheGeneralPath() {
        let samples = ["Homo sapiens", "HOMO  SAPIENS", "Unnamed clade 123", "E. coli", "a_b__c", " x ", "Baker's yeast", "\tTab\tbed\t", "~!@#$%^&*()"]
        for sample in samples {
            let general = sample.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
                .replacingOccurrences(of: "_", with: " ")
                .split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            #expect(TextFolding.foldASCII(sample) == general, "\(sample)")
        }
    }
}

import Foundation
import STOLProtocol
