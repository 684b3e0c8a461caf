import Foundation

/// What people call organisms that no checklist lists, per language: the plain files in
/// `Resources/Lexicon/<lang>.txt`, kept in the project and read once.
///
/// A file has five sections (`[means]`, `[same]`, `[words]`, `[modifiers]`, `[typical]`); lines
/// starting with `#` are comments. Entries are compared folded (`TextFolding`):
/// - `[means]`: `word, word: meaning, meaning`. A query word also searches its meanings: child
///   words (`puppy: dog`), clipped words (`hippo: hippopotamus`), everyday words (`corn: maize`).
/// - `[same]`: `form: form, form`. Forms of one word, each searching the others: spellings
///   (`grey: gray`), joined and split compounds (`honeybee: honey bee`); build-db also splits a
///   name's closed compound at them (`honeybee` → honey|bee).
/// - `[words]`: words of the language, separated by spaces. Never corrected as typos; in
///   compounding languages also the parts compounds are split at (`NameStructure`).
/// - `[modifiers]`: words beside a name's head that are not it: before it in languages whose
///   head comes first (French `grand`, `petit`; articles), after it in the others (English
///   `family`: "Cactus family"); there, a list holding one names more than its first item
///   ("carps and others", `NameMatcher.isBare`).
/// - `[typical]`: words that, beside a head alone, name the typical organisms of that kind
///   ("Common carp", "True seals", "Dauphin commun", "Gemeiner Delfin"): such an organism ranks as
///   better known for its head, such a group as named by its head (`NameMatcher.Match.typical`).
public struct Lexicon: Sendable, Equatable {
    /// Folded word → its meanings, folded (each a word or words separated by spaces).
    public var means: [String: [String]] = [:]
    /// Folded form → the other forms of the same word.
    public var same: [String: [String]] = [:]
    /// Every word the file holds: entries of `[means]` and `[same]` of one word, and `[words]`.
    public var words: Set<String> = []
    /// Words beside a head that are not it (`[modifiers]`).
    public var modifiers: Set<String> = []
    /// Words that name the typical organism of a kind beside its head (`[typical]`).
    public var typical: Set<String> = []

    /// An empty lexicon.
    public init() {}

    /// The lexicon of `lang` (a primary language subtag, `en`), empty for a language without a file.
    public static func of(_ lang: String?) -> Lexicon {
        guard let lang = Inflection.primary(lang) else { return Lexicon() }
        return all[lang] ?? Lexicon()
    }

    /// Every bundled lexicon by language, read once.
    static let all: [String: Lexicon] = {
        var out: [String: Lexicon] = [:]
        let directory = Bundle.module.url(forResource: "Lexicon", withExtension: nil, subdirectory: "Resources")
        for url in (try? FileManager.default.contentsOfDirectory(at: directory ?? URL(fileURLWithPath: "/nonexistent"), includingPropertiesForKeys: nil)) ?? []
        where url.pathExtension == "txt" {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            out[url.deletingPathExtension().lastPathComponent] = Lexicon(parsing: text)
        }
        return out
    }()

    /// Parses a lexicon file (see the type's documentation); lines it cannot read are skipped.
    public init(parsing text: String) {
        var section = ""
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
                continue
            }
            switch section {
            case "means", "same":
                guard let colon = line.firstIndex(of: ":") else { continue }
                let left = Self.list(line[..<colon]), right = Self.list(line[line.index(after: colon)...])
                guard !left.isEmpty, !right.isEmpty else { continue }
                if section == "means" {
                    for word in left { means[word, default: []] += right.filter { $0 != word } }
                } else {
                    let forms = left + right
                    for form in forms { same[form, default: []] += forms.filter { $0 != form } }
                }
                words.formUnion((left + right).filter { !$0.contains(" ") })
            case "words":
                words.formUnion(line.split(separator: " ").map { TextFolding.fold(String($0)) })
            case "modifiers":
                modifiers.formUnion(line.split(separator: " ").map { TextFolding.fold(String($0)) })
            case "typical":
                typical.formUnion(line.split(separator: " ").map { TextFolding.fold(String($0)) })
            default:
                continue
            }
        }
    }

    /// The comma-separated entries of `text`, folded, empty ones left out.
    static func list(_ text: Substring) -> [String] {
        text.split(separator: ",").map { TextFolding.fold(String($0)) }.filter { !$0.isEmpty }
    }

    /// What `word` (folded) stands for besides itself: its meanings and its other forms, looked up
    /// as written and through its singulars in the lexicon's language `lang`.
    public func alternatives(of word: String, lang: String?) -> [String] {
        var out: [String] = []
        for form in [word] + Inflection.lemmas(word, lang: lang).filter({ $0 != word }).sorted() {
            for alternative in (means[form] ?? []) + (same[form] ?? []) where !out.contains(alternative) && alternative != word {
                out.append(alternative)
            }
        }
        return out
    }

    /// Whether `word` (folded), or one of its singulars in `lang`, is a word of the lexicon.
    public func knows(_ word: String, lang: String?) -> Bool {
        words.contains(word) || Inflection.lemmas(word, lang: lang).contains { words.contains($0) }
    }
}
