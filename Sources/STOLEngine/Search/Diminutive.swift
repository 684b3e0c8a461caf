/// The words a folded diminutive may be formed from, by the regular rules of German, Spanish and
/// French: `mauschen` (Mäuschen) → maus, `katzchen` → katze, `voglein` → vogel; `gatito` → gato,
/// `ratoncito` → raton, `pececito` → pez, `pajarillo` → pajaro; `chaton` → chat, `girafon` →
/// girafe, `renardeau` → renard, `cochonnet` → cochon.
///
/// The rules only propose: several candidates, most of them no word. A search reads a query word
/// as one of them only when the word itself is no word of the language and the candidate is one
/// (`QueryRewrites`), so that `vaquita` (a porpoise's name) or `chouette` (an owl, not a little
/// `chou`) is never read as another word.
public enum Diminutive {
    /// Shortest stem left once the ending is taken off (`os|ito` → oso), and shortest base word.
    static let shortestStem = 2
    static let shortestBase = 3

    /// Candidate base words of `word` (folded) in `lang`, most likely first; empty for a word with
    /// no diminutive ending, or a language without rules.
    public static func bases(of word: String, lang: String?) -> [String] {
        var out: [String] = []
        func add(_ candidate: String) {
            if candidate != word, candidate.count >= shortestBase, !out.contains(candidate) { out.append(candidate) }
        }
        /// The stem of `word` without `suffix`, when long enough.
        func stem(_ suffix: String) -> String? {
            guard word.hasSuffix(suffix), word.count - suffix.count >= shortestStem else { return nil }
            return String(word.dropLast(suffix.count))
        }
        switch Inflection.primary(lang) {
        case "de":
            // Umlauts are folded away already: Mäuschen → mauschen → maus.
            for suffix in ["chen", "lein"] {
                guard let stem = stem(suffix) else { continue }
                add(stem)  // Hündchen → hund
                add(stem + "e")  // Kätzchen → katze, Häschen → hase
                // Vöglein → vogel: -el loses its e before -lein.
                if suffix == "lein", let last = stem.last, !"aeiou".contains(last) { add(stem + "el") }
            }
        case "es":
            // First -cito/-cita/-cillo after -n, -r and -e (raton|cito, leon|cito, coche|cito), and
            // -ecito after words of one syllable (pec|ecito → pez, flor|ecita); a stem in -c takes
            // -quito instead (vaqu|ita), so -cito is never -ito after it.
            for suffix in ["cito", "cita", "cillo", "cilla"] {
                guard let stem = stem(suffix) else { continue }
                if stem.hasSuffix("ce") { add(String(stem.dropLast(2)) + "z") }  // pez
                add(stem)
                if stem.hasSuffix("e") { add(String(stem.dropLast())) }  // flor
            }
            // Then stems before -ito/-ita/-illo/-illa: gat|ito, ovej|ita, pajar|illo.
            for (suffix, endings) in [("ito", ["o", "a", "e"]), ("ita", ["a", "o", "e"]), ("illo", ["o", "a", "e"]), ("illa", ["a", "o", "e"])] {
                guard let stem = stem(suffix) else { continue }
                // Spelling keeps the sound: vaqu|ita → vaca, hormigu|ita → hormiga.
                let spelled = stem.hasSuffix("qu") ? String(stem.dropLast(2)) + "c" : stem.hasSuffix("gu") ? String(stem.dropLast(1)) : stem
                for ending in endings { add(spelled + ending) }
            }
        case "fr":
            // Longer endings first: lion|ceau, porc|elet, renard|eau, poul|ette, cochonn|et, chat|on.
            for suffix in ["ceau", "elet", "eau", "ette", "et", "on"] {
                guard let stem = stem(suffix) else { continue }
                add(stem)  // chaton → chat, renardeau → renard
                add(stem + "e")  // girafon → girafe, poulette → poule, chevreau → chevre
                // A doubled consonant is the ending's: cochonn|et → cochon.
                if let last = stem.last, stem.dropLast().last == last, !"aeiou".contains(last) { add(String(stem.dropLast())) }
            }
        default:
            break
        }
        return out
    }
}
