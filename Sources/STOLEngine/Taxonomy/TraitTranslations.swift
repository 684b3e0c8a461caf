import Foundation
import STOLProtocol

/// Trait keys and values in German, French and Spanish, from the plain-data table
/// `Resources/trait-translations.tsv` (one row per English term: `kind en de fr es`).
///
/// A value is translated whole when the table has it; otherwise it is composed from its parts,
/// and only when every part is known:
/// - segments split by `; ` outside parentheses ("photosynthetic; reproduces by spores");
/// - a head with a parenthesis, "carnivore (large hoofed mammals)": both translated;
/// - a measurement, "up to about 1.5 m", "5–10 cm across": a quantity word, the number (with a
///   decimal comma), the unit symbol unchanged (a word unit such as `years` translated), and a
///   term after it; or a term before one ("wingspan 9–13 cm");
/// - words before places (`lead` rows: "native to Europe" → "heimisch in Europa"), the places in
///   the form the row's translation asks for, `{of}` or `{in}`;
/// - "X of Y", a habitat and where it is ("woodland of Europe and Asia"): X as a list, Y as a
///   list of places in the language's "of" form (`in Europa`, `d'Europe`, `de Europa`), the
///   shared preposition written once where the language does (`join of`). "X in Y" and
///   "X across Y" say the same of a habitat and are written so too; "X from A to B" takes the
///   range whole from a `place` row (`from Europe to China`);
/// - a segment and words after it (`suffix` rows: "dead wood worldwide" → "Totholz weltweit");
/// - lists, "A, B and C" (or "A, B, C"), each item a term ("cold, clear streams" may be one), a
///   term after a known prefix ("mainly fruit"), a measurement, or an item with a parenthesis,
///   joined as the source joins them.
/// A value with a unit is a number and needs no translation. What cannot be translated is
/// returned unchanged and marked (`Trait.translated` false).
public struct TraitTranslations: Sendable {
    /// The languages the table holds besides English.
    public static let languages = ["de", "fr", "es"]

    /// What a row of the table is.
    enum Kind: String, CaseIterable {
        /// A trait key (`body length`).
        case key
        /// A value, segment, list item or head (`carnivore`, `lakes`, `small mammals`).
        case term
        /// A place as it follows "of" (`Europe` → `in Europa`, `d'Europe`, `de Europa`), or a
        /// range of places as it follows a habitat (`from Europe to China`).
        case place
        /// A place as it follows "in" (`Japan` → `in Japan`, `au Japon`, `en Japón`), for `lead`
        /// translations that put the places at `{in}`.
        case placeIn = "place-in"
        /// A word put before a term (`mainly` → `vor allem`).
        case prefix
        /// Words before places, with `{of}` or `{in}` in each translation where the places go, in
        /// that form (`native to` → `heimisch {of}`; `introduced to` → `introduit {in}`).
        case lead
        /// Words after a segment (`worldwide` → `weltweit`, `dans le monde entier`, `en todo el mundo`).
        case suffix
        /// The word joining the last two items of a list (`and` → `und`, `et`, `y`); `of` and
        /// `in`: the preposition places share in that form, written once in a list (`-` where it
        /// is repeated).
        case join
        /// A word before a measurement (`up to about` → `bis etwa`); with the number where the
        /// words depend on it (`about 1` → `alrededor de 1`, as `unos` wants a plural).
        case quantity
        /// A unit written as a word (`years` → `Jahre`); unit symbols stay as they are.
        case unit
    }

    /// Where a `lead` row's translation puts its places, and in which form.
    static let placeholders: [(marker: String, form: Kind)] = [("{of}", .place), ("{in}", .placeIn)]

    /// Translations by kind, then English text (the first letter lower-cased), then language.
    private var rows: [Kind: [String: [String: String]]] = [:]

    /// The English of the `lead` and `suffix` rows, longest first, so that "almost worldwide" is
    /// tried before "worldwide".
    private var leads: [String] = [], suffixes: [String] = []

    /// The table shipped in the engine's resources (empty if it is missing: then nothing is translated).
    public static let shipped: TraitTranslations = {
        guard let url = Bundle.module.url(forResource: "trait-translations", withExtension: "tsv", subdirectory: "Resources"),
              let text = try? String(contentsOf: url, encoding: .utf8) else { return TraitTranslations() }
        return (try? TraitTranslations(tsv: text)) ?? TraitTranslations()
    }()

    /// A table with nothing in it.
    public init() {}

    /// Why a table cannot be read: the line and what is wrong with it.
    public struct FormatError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var detail: String
        public var description: String { "trait-translations.tsv line \(line): \(detail)" }
    }

    /// Reads the table: a header `kind en de fr es`, then tab-separated rows; `#` lines are comments.
    public init(tsv text: String) throws {
        let columns = ["kind", "en"] + Self.languages
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map { String($0) }
            if fields == columns { continue }
            guard fields.count == columns.count else { throw FormatError(line: number, detail: "expected \(columns.count) tab-separated fields, found \(fields.count)") }
            guard let kind = Kind(rawValue: fields[0]) else { throw FormatError(line: number, detail: "unknown kind \(fields[0])") }
            guard fields.allSatisfy({ !$0.isEmpty }) else { throw FormatError(line: number, detail: "an empty field") }
            let english = Self.lookupKey(fields[1])
            guard rows[kind]?[english] == nil else { throw FormatError(line: number, detail: "\(kind.rawValue) \"\(fields[1])\" is listed twice") }
            if kind == .lead, let bad = fields[2...].first(where: { text in Self.placeholders.filter { text.contains($0.marker) }.count != 1 }) {
                throw FormatError(line: number, detail: "lead \"\(bad)\" needs one of {of} or {in}")
            }
            rows[kind, default: [:]][english] = Dictionary(uniqueKeysWithValues: zip(Self.languages, fields[2...]))
        }
        leads = (rows[.lead] ?? [:]).keys.sorted { ($0.count, $0) > ($1.count, $1) }
        suffixes = (rows[.suffix] ?? [:]).keys.sorted { ($0.count, $0) > ($1.count, $1) }
    }

    /// How many rows of each kind.
    var counts: [String: Int] { Dictionary(uniqueKeysWithValues: rows.map { ($0.key.rawValue, $0.value.count) }) }

    /// The language the table would translate into for `lang` (`de` for `de-AT`), or nil.
    public static func tableLanguage(_ lang: String) -> String? {
        let primary = String(lang.split(separator: "-").first ?? Substring(lang)).lowercased()
        return languages.contains(primary) ? primary : nil
    }

    /// Whether `lang` is English, the language of every source's traits.
    static func isEnglish(_ lang: String) -> Bool {
        (lang.split(separator: "-").first.map(String.init) ?? lang).lowercased() == "en"
    }

    /// `trait` in `lang`: `label` (the key) and `value` translated where the table can, with
    /// `translated` false when the value (or the key) could not be.
    public func localized(_ trait: Trait, to lang: String) -> Trait {
        var out = trait
        if Self.isEnglish(lang) {
            out.label = trait.key
            out.translated = true
            return out
        }
        guard let language = Self.tableLanguage(lang) else {
            out.label = trait.key
            out.translated = false
            return out
        }
        let label = lookup(.key, trait.key, language)
        let value = trait.unit != nil || Self.isNumber(trait.value) ? trait.value : translate(trait.value, language)
        out.label = label ?? trait.key
        out.value = value ?? trait.value
        out.translated = label != nil && value != nil
        return out
    }

    /// `value` in `language`, or nil when some part of it is not in the table.
    func translate(_ value: String, _ language: String) -> String? {
        if let whole = lookup(.term, value, language) { return whole }
        let segments = Self.segments(value)
        if segments.count > 1 {
            let parts = segments.map { translateSegment($0, language) }
            return parts.contains(nil) ? nil : parts.compactMap { $0 }.joined(separator: "; ")
        }
        return translateSegment(value, language)
    }

    /// `value` split at each "; " outside parentheses: "herbivore (seeds, fruit; eats clay)" is one.
    static func segments(_ value: String) -> [String] {
        var segments: [String] = [], current = "", depth = 0
        var rest = value[...]
        while let character = rest.first {
            if depth == 0, rest.hasPrefix("; ") {
                segments.append(current)
                current = ""
                rest = rest.dropFirst(2)
                continue
            }
            if character == "(" { depth += 1 } else if character == ")" { depth = max(0, depth - 1) }
            current.append(character)
            rest = rest.dropFirst()
        }
        return segments + [current]
    }

    private func translateSegment(_ segment: String, _ language: String) -> String? {
        if let whole = lookup(.term, segment, language) { return whole }
        if let parenthesised = parenthesised(segment, language, head: translateSegment) { return parenthesised }
        if let measured = measurement(segment, language) ?? termAndMeasurement(segment, language) { return measured }
        if let led = leadAndPlaces(segment, language) { return led }
        if let located = habitatAndPlaces(segment, language) { return located }
        if let followed = segmentAndSuffix(segment, language) { return followed }
        return list(segment, language)
    }

    /// "head (inside)": the head translated by `head`, the inside as a value.
    private func parenthesised(_ text: String, _ language: String, head: (String, String) -> String?) -> String? {
        guard text.hasSuffix(")"), let open = text.range(of: " (", options: .backwards) else { return nil }
        let inside = String(text[open.upperBound..<text.index(before: text.endIndex)])
        guard let h = head(String(text[..<open.lowerBound]), language), let i = translate(inside, language) else { return nil }
        return "\(h) (\(i))"
    }

    /// The words between a habitat and its places: "of", and "in" and "across", which say the
    /// same of a habitat; "from" begins a range looked up whole (`from Europe to China`).
    private static let connectors = [" of ", " in ", " across ", " from "]

    /// "what of where", at each connector in turn ("Africa south of the Sahara" holds one too).
    private func habitatAndPlaces(_ segment: String, _ language: String) -> String? {
        var found: [(at: Range<String.Index>, connector: String)] = []
        for connector in Self.connectors {
            var from = segment.startIndex
            while let at = segment.range(of: connector, range: from..<segment.endIndex) {
                found.append((at, connector))
                from = segment.index(after: at.lowerBound)
            }
        }
        for (at, connector) in found.sorted(by: { $0.at.lowerBound < $1.at.lowerBound }) {
            let rest = String(segment[at.upperBound...])
            let whereabouts = connector == " from " ? lookup(.place, "from " + rest, language) : places(rest, .place, language)
            if let whereabouts, let what = list(String(segment[..<at.lowerBound]), language) { return "\(what) \(whereabouts)" }
        }
        return nil
    }

    /// "native to Europe": a `lead` row with the places put where its translation says.
    private func leadAndPlaces(_ segment: String, _ language: String) -> String? {
        let key = Self.lookupKey(segment)
        for english in leads where key.hasPrefix(english + " ") {
            guard let translation = rows[.lead]?[english]?[language],
                  let (marker, form) = Self.placeholders.first(where: { translation.contains($0.marker) }),
                  let whereabouts = places(String(segment.dropFirst(english.count + 1)), form, language) else { continue }
            return translation.replacingOccurrences(of: marker, with: whereabouts)
        }
        return nil
    }

    /// "dead wood worldwide": a segment, then a `suffix` row.
    private func segmentAndSuffix(_ segment: String, _ language: String) -> String? {
        for english in suffixes where segment.count > english.count + 1 && segment.hasSuffix(" " + english) {
            guard let after = rows[.suffix]?[english]?[language],
                  let before = translateSegment(String(segment.dropLast(english.count + 1)), language) else { continue }
            return "\(before) \(after)"
        }
        return nil
    }

    /// The units a measurement may end in: symbols kept, words translated (`unit` rows).
    private static let symbols: Set<String> = ["µm", "mm", "cm", "m", "km", "mg", "g", "kg", "t", "°C"]

    /// "[quantity] number unit [term]": "up to about 1.5 m" → "bis etwa 1,5 m".
    private func measurement(_ text: String, _ language: String) -> String? {
        let words = text.split(separator: " ").map(String.init)
        guard let at = words.firstIndex(where: { $0.first?.isNumber == true }) else { return nil }
        var number = words[at], unitIndex = at + 1
        var unit: String
        if let split = number.firstIndex(where: { !($0.isNumber || ".,–-".contains($0)) }) {
            unit = String(number[split...])  // "10cm"
            number = String(number[..<split])
            unitIndex = at
        } else {
            guard unitIndex < words.count else { return nil }
            unit = words[unitIndex]
        }
        guard Self.isNumber(number) else { return nil }
        if !Self.symbols.contains(unit) {
            guard let word = lookup(.unit, unit, language) else { return nil }
            unit = word
        }
        var out: [String] = []
        let quantity = words[..<at].joined(separator: " ")
        if at > 0, let withNumber = lookup(.quantity, quantity + " " + number, language) {
            out.append("\(withNumber) \(unit)")  // "about 1" → "alrededor de 1", not "unos 1"
        } else {
            if at > 0 {
                guard let quantityWords = lookup(.quantity, quantity, language) else { return nil }
                out.append(quantityWords)
            }
            out.append("\(Self.localizedNumber(number)) \(unit)")
        }
        if unitIndex + 1 < words.count {
            guard let after = lookup(.term, words[(unitIndex + 1)...].joined(separator: " "), language) else { return nil }
            out.append(after)
        }
        return out.joined(separator: " ")
    }

    /// A number or range as German, French and Spanish write it: a decimal comma ("1.5" → "1,5"),
    /// and no English thousands comma ("1,000" → "1000"; from five digits a no-break space in
    /// its place, "490,000" → "490 000", which all three read as it is meant).
    static func localizedNumber(_ number: String) -> String {
        var out = "", run = ""
        func flush() {
            let groups = run.split(separator: ",", omittingEmptySubsequences: false)
            if groups.count > 1, (1...3).contains(groups[0].count), groups[0].allSatisfy(\.isNumber),
               groups.dropFirst().allSatisfy({ $0.prefix(while: \.isNumber).count == 3 && ($0.count == 3 || $0.dropFirst(3).first == ".") }) {
                let whole = groups.joined()
                let integer = whole.prefix(while: \.isNumber), fraction = whole.dropFirst(integer.count)
                var grouped = ""
                for (index, digit) in integer.enumerated() {
                    if integer.count > 4, index > 0, (integer.count - index) % 3 == 0 { grouped += "\u{00A0}" }
                    grouped.append(digit)
                }
                out += grouped + fraction.replacingOccurrences(of: ".", with: ",")
            } else {
                out += run.contains(",") ? run : run.replacingOccurrences(of: ".", with: ",")
            }
            run = ""
        }
        for character in number {
            if character.isNumber || character == "." || character == "," { run.append(character) } else { flush(); out.append(character) }
        }
        flush()
        return out
    }

    /// "term measurement": "wingspan 9–13 cm" → "Flügelspannweite 9–13 cm".
    private func termAndMeasurement(_ text: String, _ language: String) -> String? {
        var space = text.firstIndex(of: " ")
        while let at = space {
            if let term = lookup(.term, String(text[..<at]), language), let measured = measurement(String(text[text.index(after: at)...]), language) {
                return "\(term) \(measured)"
            }
            space = text[text.index(after: at)...].firstIndex(of: " ")
        }
        return nil
    }

    /// "A, B and C": pieces taken as items, the longest that translate first ("cold, clear
    /// streams" may be one term), joined by the source's own separators.
    private func list(_ text: String, _ language: String) -> String? {
        let (pieces, separators) = Self.pieces(text)
        // best[i]: pieces[i...] as translated items, or nil when they cannot be.
        var best = [String?](repeating: nil, count: pieces.count + 1)
        best[pieces.count] = ""
        for start in stride(from: pieces.count - 1, through: 0, by: -1) {
            for end in stride(from: pieces.count, to: start, by: -1) {
                guard let rest = best[end] else { continue }
                let span = (start..<end).map { pieces[$0] + ($0 < end - 1 ? separators[$0] : "") }.joined()
                guard let translated = item(span, language) else { continue }
                best[start] = end == pieces.count ? translated : translated + joiner(separators[end - 1], language) + rest
                break
            }
        }
        return best[0]
    }

    /// A list item: a term, a prefix and a term, a measurement, or an item with a parenthesis.
    private func item(_ text: String, _ language: String) -> String? {
        if let term = lookup(.term, text, language) { return term }
        if let space = text.firstIndex(of: " "), let prefix = lookup(.prefix, String(text[..<space]), language),
           let rest = lookup(.term, String(text[text.index(after: space)...]), language) {
            return "\(prefix) \(rest)"
        }
        return measurement(text, language) ?? termAndMeasurement(text, language) ?? parenthesised(text, language, head: item)
    }

    /// Places in the language's form `form` (`place`: after "of", `placeIn`: after "in"), the
    /// preposition they share written once where the language does ("in Europa und Westasien").
    private func places(_ text: String, _ form: Kind, _ language: String) -> String? {
        if let whole = lookup(form, text, language) { return whole }
        let (items, withAnd) = Self.split(text)
        guard items.count > 1 else { return nil }
        var translated = items.compactMap { lookup(form, $0, language) }
        guard translated.count == items.count else { return nil }
        if let shared = rows[.join]?[form == .place ? "of" : "in"]?[language], shared != "-", translated.allSatisfy({ $0.hasPrefix(shared + " ") }) {
            translated = [translated[0]] + translated.dropFirst().map { String($0.dropFirst(shared.count + 1)) }
        }
        return join(translated, withAnd: withAnd, language)
    }

    /// A list's separator in `language`: ", " stays, " and " becomes the language's word.
    private func joiner(_ separator: String, _ language: String) -> String {
        separator == ", " ? separator : " \(rows[.join]?["and"]?[language] ?? "and") "
    }

    private func join(_ items: [String], withAnd: Bool, _ language: String) -> String {
        guard withAnd, items.count > 1 else { return items.joined(separator: ", ") }
        let and = rows[.join]?["and"]?[language] ?? "and"
        return items.dropLast().joined(separator: ", ") + " \(and) " + items[items.count - 1]
    }

    /// "A, B and C" → ([A, B, C], [", ", " and "]): every piece between two separators.
    static func pieces(_ text: String) -> (pieces: [String], separators: [String]) {
        var pieces: [String] = [], separators: [String] = []
        var rest = text[...]
        while let at = [", ", " and "].compactMap({ rest.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) {
            pieces.append(String(rest[..<at.lowerBound]))
            separators.append(String(rest[at]))
            rest = rest[at.upperBound...]
        }
        return (pieces + [String(rest)], separators)
    }

    /// "A, B and C" → ([A, B, C], true); "A, B, C" → ([A, B, C], false).
    static func split(_ text: String) -> (items: [String], withAnd: Bool) {
        var items = text.components(separatedBy: ", ")
        var withAnd = false
        if let last = items.popLast() {
            let parts = last.components(separatedBy: " and ")
            withAnd = parts.count > 1
            items += parts
        }
        return (items.filter { !$0.isEmpty }, withAnd)
    }

    private func lookup(_ kind: Kind, _ english: String, _ language: String) -> String? {
        rows[kind]?[Self.lookupKey(english)]?[language]
    }

    /// Rows match with the first letter lower-cased ("Carnivore" and "carnivore" are one term).
    private static func lookupKey(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }

    /// A number or a range of numbers (`12`, `1.4–2.5`), which reads the same in every language.
    private static func isNumber(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isNumber || ".,–- ".contains($0) }
    }
}
