/// Singular and plural forms of folded words in English, Spanish, French and German, so that
/// `wolves` finds "Grey wolf", `mice` "House mouse" and `Hunde` "Haushund"'s family.
///
/// Two words are inflections of each other in a language when their candidate singulars
/// (`lemmas`) meet; the same rules serve both the names (in their own language) and the query.
/// Words are folded first (no accents), which turns German umlaut plurals (Mäuse, Wölfe) into
/// plain endings. `forms` lists the surface forms a query word may take in any of the languages,
/// the terms looked up in the full-text index before `lemmas` confirms each name.
public enum Inflection {
    /// The languages whose plurals are known.
    public static let languages: Set<String> = ["en", "es", "fr", "de"]

    /// Irregular English plurals by singular (folded).
    static let englishIrregular: [String: String] = [
        "mouse": "mice", "louse": "lice", "goose": "geese", "tooth": "teeth", "foot": "feet", "man": "men",
        "woman": "women", "child": "children", "ox": "oxen", "person": "people", "cactus": "cacti",
        "fungus": "fungi", "octopus": "octopuses", "hippopotamus": "hippopotami", "platypus": "platypuses",
        "larva": "larvae", "alga": "algae", "antenna": "antennae", "nucleus": "nuclei", "bacterium": "bacteria",
        "genus": "genera", "species": "species", "sheep": "sheep", "deer": "deer", "fish": "fish", "moose": "moose",
        "bison": "bison", "salmon": "salmon", "trout": "trout", "squid": "squid", "dice": "die",
    ]
    static let englishSingular: [String: String] = Dictionary(englishIrregular.map { ($1, $0) }, uniquingKeysWith: { a, _ in a })

    /// German plurals the endings below cannot reach.
    static let germanIrregular: [String: String] = ["kuh": "kuhe", "maus": "mause", "laus": "lause", "gans": "ganse"]

    /// The language of a name or the user ("pt-BR" → "pt").
    static func primary(_ lang: String?) -> String? {
        guard let lang else { return nil }
        // Most tags are already a primary subtag in lower case ("en"): no new string.
        if lang.utf8.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) { return lang }
        return String(lang.prefix { $0 != "-" && $0 != "_" }).lowercased()
    }

    /// Candidate singulars of `word` in `lang` (the word itself included); just the word for a
    /// language without rules or a scientific name.
    public static func lemmas(_ word: String, lang: String?) -> Set<String> {
        var out: Set<String> = [word]
        guard let lang = primary(lang), languages.contains(lang), word.count >= 3 else { return out }
        func strip(_ suffix: String, add: String = "", minimum: Int = 2) {
            guard word.hasSuffix(suffix), word.count - suffix.count >= minimum else { return }
            out.insert(String(word.dropLast(suffix.count)) + add)
        }
        switch lang {
        case "en":
            if let singular = englishSingular[word] { out.insert(singular) }
            if word.hasSuffix("men") { out.insert(String(word.dropLast(3)) + "man") }  // fishermen
            if word.hasSuffix("mice") { out.insert(String(word.dropLast(4)) + "mouse") }  // dormice
            if word.hasSuffix("geese") { out.insert(String(word.dropLast(5)) + "goose") }
            strip("ies", add: "y")  // hobbies
            strip("ves", add: "f")  // wolves
            strip("ves", add: "fe")  // knives
            for ending in ["ses", "xes", "zes", "ches", "shes", "oes"] where word.hasSuffix(ending) { strip("es") }
            if word.hasSuffix("s"), !word.hasSuffix("ss"), !word.hasSuffix("us"), !word.hasSuffix("is") { strip("s") }
        case "es":
            strip("ces", add: "z")  // peces → pez
            strip("es")  // leones → leon
            strip("s")  // tigres → tigre
        case "fr":
            strip("aux", add: "al")  // chevaux → cheval
            strip("aux", add: "ail")  // coraux → corail
            strip("x")  // oiseaux → oiseau, hiboux → hibou
            strip("s")
        default:  // de, folded: Mäuse → mause, Wölfe → wolfe
            if let singular = germanIrregular.first(where: { $0.value == word })?.key { out.insert(singular) }
            strip("innen", add: "in")  // Löwinnen
            strip("en")  // Bären
            strip("n")  // Katzen → Katze
            strip("e")  // Hunde, Füchse
            strip("er")  // Kinder
            strip("s")  // Uhus
        }
        return out
    }

    /// Whether `a` and `b` are the same word in different numbers in `lang` (not equal words).
    public static func areInflections(_ a: String, _ b: String, lang: String?) -> Bool {
        guard a != b, let lang = primary(lang), languages.contains(lang) else { return false }
        // Quick reject: inflections share all but their last few letters.
        guard a.first == b.first, abs(a.count - b.count) <= 5 else { return false }
        return !lemmas(a, lang: lang).isDisjoint(with: lemmas(b, lang: lang))
    }

    /// Every form `word` may take in a name of any known language: its singulars and their
    /// plurals. A superset: names found through these are confirmed with `areInflections`.
    public static func forms(_ word: String) -> Set<String> {
        guard word.count >= 3 else { return [] }
        var singulars: Set<String> = []
        for lang in languages { singulars.formUnion(lemmas(word, lang: lang)) }
        var out = singulars
        for s in singulars {
            if let plural = englishIrregular[s] { out.insert(plural) }
            if let plural = germanIrregular[s] { out.insert(plural) }
            out.formUnion([s + "s", s + "es", s + "x", s + "e", s + "en", s + "n", s + "er", s + "nen"])
            if s.hasSuffix("y") { out.insert(String(s.dropLast()) + "ies") }
            if s.hasSuffix("f") { out.insert(String(s.dropLast()) + "ves") }
            if s.hasSuffix("fe") { out.insert(String(s.dropLast(2)) + "ves") }
            if s.hasSuffix("z") { out.insert(String(s.dropLast()) + "ces") }
            if s.hasSuffix("al") { out.insert(String(s.dropLast(2)) + "aux") }
            if s.hasSuffix("ail") { out.insert(String(s.dropLast(3)) + "aux") }
            if s.hasSuffix("man") { out.insert(String(s.dropLast(3)) + "men") }
            if s.hasSuffix("mouse") { out.insert(String(s.dropLast(5)) + "mice") }
            if s.hasSuffix("goose") { out.insert(String(s.dropLast(5)) + "geese") }
        }
        out.remove(word)
        return out
    }
}
