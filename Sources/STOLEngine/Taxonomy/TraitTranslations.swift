import Foundation
import STOLProtocol

/// Trait keys and values in German, French and Spanish, from the plain-data table
/// `Resources/trait-translations.tsv` (one row per English term: `kind en de fr es`).
///
/// A value is translated whole when the table has it; otherwise it is composed from its parts,
/// and only when every part is known:
/// - segments split by `; ` ("photosynthetic; reproduces by spores");
/// - a head with a parenthesis, "carnivore (large hoofed mammals)": both translated;
/// - a measurement, "up to about 1.5 m", "5–10 cm across": a quantity word, the number (with a
///   decimal comma), the unit symbol unchanged (a word unit such as `years` translated), and a
///   term after it; or a term before one ("wingspan 9–13 cm");
/// - "X of Y", a habitat and where it is ("woodland of Europe and Asia"): X as a list, Y as a
///   list of places in the language's "of" form (`in Europa`, `d'Europe`, `de Europa`), the
///   shared preposition written once where the language does (`join of`);
/// - lists, "A, B and C" (or "A, B, C"), each item a term, or a term after a known prefix
///   ("mainly fruit"), joined as the source joins them.
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
        /// A place as it follows "of" (`Europe` → `in Europa`, `d'Europe`, `de Europa`).
        case place
        /// A word put before a term (`mainly` → `vor allem`).
        case prefix
        /// The word joining the last two items of a list (`and` → `und`, `et`, `y`); `of`: the
        /// preposition places share, written once in a list (`-` where it is repeated).
        case join
        /// A word before a measurement (`up to about` → `bis etwa`).
        case quantity
        /// A unit written as a word (`years` → `Jahre`); unit symbols stay as they are.
        case unit
    }

    /// Translations by kind, then English text (the first letter lower-cased), then language.
    private var rows: [Kind: [String: [String: String]]] = [:]

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
            rows[kind, default: [:]][english] = Dictionary(uniqueKeysWithValues: zip(Self.languages, fields[2...]))
        }
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
        let segments = value.components(separatedBy: "; ")
        if segments.count > 1 {
            let parts = segments.map { translateSegment($0, language) }
            return parts.contains(nil) ? nil : parts.compactMap { $0 }.joined(separator: "; ")
        }
        return translateSegment(value, language)
    }

    private func translateSegment(_ segment: String, _ language: String) -> String? {
        if let whole = lookup(.term, segment, language) { return whole }
        // "head (inside)"
        if segment.hasSuffix(")"), let open = segment.range(of: " (", options: .backwards) {
            let head = String(segment[..<open.lowerBound]), inside = String(segment[open.upperBound..<segment.index(before: segment.endIndex)])
            guard let h = translateSegment(head, language), let i = translate(inside, language) else { return nil }
            return "\(h) (\(i))"
        }
        if let measured = measurement(segment, language) ?? termAndMeasurement(segment, language) { return measured }
        // "what of where", at each "of" in turn ("Africa south of the Sahara" holds one too)
        var searchFrom = segment.startIndex
        while let of = segment.range(of: " of ", range: searchFrom..<segment.endIndex) {
            if let w = list(String(segment[..<of.lowerBound]), language), let p = places(String(segment[of.upperBound...]), language) { return "\(w) \(p)" }
            searchFrom = segment.index(after: of.lowerBound)
        }
        return list(segment, language)
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
        var out: [String] = []
        if at > 0 {
            guard let quantity = lookup(.quantity, words[..<at].joined(separator: " "), language) else { return nil }
            out.append(quantity)
        }
        if !Self.symbols.contains(unit) {
            guard let word = lookup(.unit, unit, language) else { return nil }
            unit = word
        }
        // A decimal point becomes the decimal comma of German, French and Spanish.
        if number.contains("."), !number.contains(",") { number = number.replacingOccurrences(of: ".", with: ",") }
        out.append("\(number) \(unit)")
        if unitIndex + 1 < words.count {
            guard let after = lookup(.term, words[(unitIndex + 1)...].joined(separator: " "), language) else { return nil }
            out.append(after)
        }
        return out.joined(separator: " ")
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

    /// "A, B and C" with each item a term (or a prefix and a term).
    private func list(_ text: String, _ language: String) -> String? {
        if let whole = item(text, language) { return whole }
        let (items, withAnd) = Self.split(text)
        guard items.count > 1 else { return nil }
        let translated = items.map { item($0, language) }
        guard !translated.contains(nil) else { return nil }
        return join(translated.compactMap { $0 }, withAnd: withAnd, language)
    }

    private func item(_ text: String, _ language: String) -> String? {
        if let term = lookup(.term, text, language) { return term }
        guard let space = text.firstIndex(of: " ") else { return nil }
        guard let prefix = lookup(.prefix, String(text[..<space]), language),
              let rest = lookup(.term, String(text[text.index(after: space)...]), language) else { return nil }
        return "\(prefix) \(rest)"
    }

    /// Places after "of": each in the language's "of" form ("in Europa und Westasien").
    private func places(_ text: String, _ language: String) -> String? {
        if let whole = lookup(.place, text, language) { return whole }
        let (items, withAnd) = Self.split(text)
        guard items.count > 1 else { return nil }
        var translated = items.compactMap { lookup(.place, $0, language) }
        guard translated.count == items.count else { return nil }
        if let shared = rows[.join]?["of"]?[language], shared != "-", translated.allSatisfy({ $0.hasPrefix(shared + " ") }) {
            translated = [translated[0]] + translated.dropFirst().map { String($0.dropFirst(shared.count + 1)) }
        }
        return join(translated, withAnd: withAnd, language)
    }

    private func join(_ items: [String], withAnd: Bool, _ language: String) -> String {
        guard withAnd, items.count > 1 else { return items.joined(separator: ", ") }
        let and = rows[.join]?["and"]?[language] ?? "and"
        return items.dropLast().joined(separator: ", ") + " \(and) " + items[items.count - 1]
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
