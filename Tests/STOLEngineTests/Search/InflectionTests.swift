import STOLProtocol
import Testing

@testable import STOLEngine

@Suite struct InflectionTests {
    @Test func singularsAndPluralsMeetInTheirLanguage() {
        let pairs: [(String, String, String)] = [
            ("wolves", "wolf", "en"), ("mice", "mouse", "en"), ("geese", "goose", "en"), ("hobbies", "hobby", "en"),
            ("foxes", "fox", "en"), ("tigers", "tiger", "en"), ("dormice", "dormouse", "en"), ("knives", "knife", "en"),
            ("fishermen", "fisherman", "en"), ("children", "child", "en"), ("leones", "leon", "es"), ("peces", "pez", "es"),
            ("tigres", "tigre", "es"), ("chevaux", "cheval", "fr"), ("coraux", "corail", "fr"), ("oiseaux", "oiseau", "fr"), ("loups", "loup", "fr"),
            ("mause", "maus", "de"), ("wolfe", "wolf", "de"), ("baren", "bar", "de"), ("katzen", "katze", "de"), ("hunde", "hund", "de"),
            ("lowinnen", "lowin", "de"), ("fuchse", "fuchs", "de"),
        ]
        for (plural, singular, lang) in pairs {
            #expect(Inflection.areInflections(plural, singular, lang: lang), "\(plural) / \(singular) in \(lang)")
            #expect(Inflection.areInflections(singular, plural, lang: lang), "symmetric: \(singular) / \(plural)")
            #expect(Inflection.forms(plural).contains(singular), "query forms of \(plural) reach \(singular)")
            #expect(Inflection.forms(singular).contains(plural), "query forms of \(singular) reach \(plural)")
        }
    }

    @Test func rulesStayInTheirLanguage() {
        // German endings are not English ones: "chicken" is not the plural of "chick".
        #expect(!Inflection.areInflections("chicks", "chicken", lang: "en"))
        #expect(!Inflection.areInflections("baren", "bar", lang: "fr"), "Bären is no French plural of bar")
        #expect(!Inflection.areInflections("lion", "leon", lang: "es"))
        #expect(!Inflection.areInflections("wolves", "wolf", lang: nil), "scientific names have no plurals")
        #expect(!Inflection.areInflections("wolves", "wolf", lang: "la"))
        #expect(!Inflection.areInflections("bar", "bar", lang: "en"), "equal words are not inflections")
        #expect(Inflection.areInflections("wolves", "wolf", lang: "en-GB"), "region subtags count as the language")
        #expect(Inflection.forms("ox").isEmpty, "words under three letters take no forms")
    }
}
