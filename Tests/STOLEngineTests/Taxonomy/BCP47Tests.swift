import STOLProtocol
import Testing

@testable import STOLEngine

/// Language tags in the forms an operating system hands an app.
@Suite struct BCP47Tests {
    @Test func canonicalForms() {
        let cases: [(String, String?)] = [
            ("en", "en"), ("EN", "en"), ("de_DE", "de-DE"), ("de-de", "de-DE"), ("DE_de", "de-DE"), ("pt-br", "pt-BR"),
            ("zh_hant_tw", "zh-Hant-TW"), ("ZH-HANS", "zh-Hans"), ("es-419", "es-419"), ("de_DE.UTF-8", "de-DE"),
            ("ca_ES@valencia", "ca-ES"), ("sr_RS.UTF-8@latin", "sr-RS"), ("C", "en"), ("POSIX", "en"), ("C.UTF-8", "en"), (" fr ", "fr"),
            ("english", nil), ("e", nil), ("", nil), ("de-", nil), ("de__DE", nil), ("d3", nil), ("de-DE-toolongsubtag", nil), ("de DE", nil),
        ]
        for (given, expected) in cases { #expect(BCP47.canonical(given) == expected, "\(given)") }
        // Every canonical tag is one the strict check accepts, or carries a singleton extension.
        for (given, _) in cases { if let tag = BCP47.canonical(given) { #expect(BCP47.isLanguageTag(tag), "\(tag)") } }
    }
}
