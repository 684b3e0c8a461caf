import Foundation
import STOLJSON
import STOLProtocol
import STOLTestSupport
import Testing

/// The words everyday users and children type, over the real binary and the embedded database:
/// the dataset's everyday names of groups in each language, diminutives read as the word they
/// are formed from, and the lexicon's everyday words.
@Suite(.serialized) struct EverydayWordsTests {
    static let engine = Result { try EngineProcess() }

    func results(_ query: String, lang: String, limit: Int = 5) async throws -> [JSONValue] {
        try await Self.engine.get().result(SearchQueryRequest(query: query, lang: lang, limit: limit))?["results"]?.arrayValue ?? []
    }

    func names(_ results: [JSONValue]) -> [String] { results.compactMap { $0["scientificName"]?.stringValue } }

    /// A group's everyday word in each language finds the group first (dataset/default names).
    @Test func everydayGroupWordsFindTheirGroup() async throws {
        for (query, lang, group) in [
            ("singes", "fr", "Primates"), ("monos", "es", "Primates"), ("Affen", "de", "Primates"),
            ("libellules", "fr", "Odonata"), ("libélulas", "es", "Odonata"), ("pájaros", "es", "Aves"),
            ("papillons", "fr", "Lepidoptera"), ("couleuvres", "fr", "Colubridae"), ("culebras", "es", "Colubridae"),
            ("vers de terre", "fr", "Crassiclitellata"), ("Regenwürmer", "de", "Crassiclitellata"), ("setas", "es", "Agaricales"),
            ("gaviotas", "es", "Laridae"), ("manchots", "fr", "Sphenisciformes|Spheniscidae"), ("Kakteen", "de", "Cactaceae"),
            ("Fledermäuse", "de", "Chiroptera"), ("Spinnen", "de", "Araneae"), ("hérissons", "fr", "Erinaceidae"),
            ("chênes", "fr", "Quercus"), ("Kiefern", "de", "Pinus"), ("escargots", "fr", "Gastropoda"),
        ] {
            let found = names(try await results(query, lang: lang))
            #expect(found.first.map { group.split(separator: "|").contains(Substring($0)) } ?? false, "\(query) (\(lang)): \(found)")
        }
    }

    /// A diminutive no name holds is read as the word it is formed from, like a plural, and says so.
    @Test func diminutivesReadAsTheirBaseWord() async throws {
        for (query, lang, meant, readAs) in [
            ("Mäuschen", "de", "Mus musculus", "maus"), ("Vögelchen", "de", "Aves", "vogel"), ("Äffchen", "de", "Primates", "affe"),
            ("ratoncito", "es", "Mus musculus", "raton"), ("pajarito", "es", "Aves", "pajaro"), ("osito", "es", "Ursidae", "oso"),
            ("corderito", "es", "Ovis aries", "oveja"), ("chaton", "fr", "Felis catus", "chat"), ("ourson", "fr", "Ursidae", "ours"),
            ("girafon", "fr", "Giraffa camelopardalis", "girafe"), ("renardeau", "fr", "Vulpes", "renard"),
        ] {
            let found = try await results(query, lang: lang, limit: 3)
            let hit = found.first { $0["scientificName"]?.stringValue == meant }
            #expect(hit != nil, "\(query) (\(lang)): \(names(found))")
            #expect(hit?["readAs"]?.stringValue == readAs, "\(query): read as \(String(describing: hit?["readAs"]))")
        }
    }

    /// A word a name holds as typed is no diminutive of another: the porpoise `vaquita` is no
    /// little cow, `chouette` (owl) no little cabbage, `Eichhörnchen` no little oak horn.
    @Test func realWordsAreNotReadAsDiminutives() async throws {
        for (query, lang, meant, base) in [
            ("vaquita", "es", "Phocoena sinus", "vaca"), ("chouette", "fr", "Strigiformes", "chou"), ("Eichhörnchen", "de", "Sciurus vulgaris", "eichhorn"),
            ("Kaninchen", "de", "Oryctolagus cuniculus", "kanin"), ("mosquito", "es", "Culicidae", "mosca"), ("mouton", "fr", "Ovis aries", "mout"),
        ] {
            let found = try await results(query, lang: lang)
            #expect(names(found).first == meant, "\(query) (\(lang)): \(names(found))")
            #expect(found.first?["readAs"] == nil, "\(query) is found as typed: \(found.map { $0["readAs"] })")
            // Other readings may follow (a group through its English name: squirrel), no diminutive.
            #expect(!found.contains { $0["readAs"]?.stringValue?.hasPrefix(base) == true }, "\(query) is no diminutive of \(base): \(found.map { $0["readAs"] })")
        }
    }

    /// Colloquial, regional and farm words of the lexicon find what they mean, and say so.
    @Test func lexiconEverydayWordsFindTheirMeaning() async throws {
        for (query, lang, meant, readAs) in [
            ("seagull", "en", "Laridae", "gull"), ("budgie", "en", "Melopsittacus undulatus", "budgerigar"),
            ("possum", "en", "Didelphidae", "opossum"), ("t rex", "en", "Tyrannosaurus rex", "tyrannosaurus"),
            ("roly poly", "en", "Armadillidiidae", "pill bug"), ("Pute", "de", "Meleagris gallopavo", "truthahn"),
            ("Grashüpfer", "de", "Orthoptera", "heuschrecke"), ("Pusteblume", "de", "Taraxacum officinale", "lowenzahn"),
            ("Kaktus", "de", "Cactaceae", "kakteen"), ("dinde", "fr", "Meleagris gallopavo", "dindon"),
            ("cafard", "fr", "Blattodea", "blatte"), ("maringouin", "fr", "Culicidae", "moustique"),
            ("alacrán", "es", "Scorpiones", "escorpion"), ("chivo", "es", "Capra hircus", "cabra"),
            ("catarina", "es", "Coccinellidae", "mariquita"),
        ] {
            let found = try await results(query, lang: lang, limit: 3)
            let hit = found.first { $0["scientificName"]?.stringValue == meant }
            #expect(hit != nil, "\(query) (\(lang)): \(names(found))")
            #expect(hit?["readAs"]?.stringValue == readAs, "\(query): read as \(String(describing: hit?["readAs"]))")
        }
        // A word the database's names hold is not redirected to the penguins: in French the auks
        // (Alcidae) and the `Grand Pingouin` keep `pingouin`.
        let pingouin = names(try await results("pingouin", lang: "fr", limit: 3))
        #expect(Set(pingouin.prefix(2)) == ["Alcidae", "Pinguinus impennis"] && !pingouin.contains("Spheniscidae"), "\(pingouin)")
    }
}
