import STOLEngine
import STOLProtocol

/// Whether a text linked to a taxon is about that taxon: its title or its opening must name the
/// taxon by one of its names. Linked data is messy: *Felis catus* carries Wikipedia's "Wildcat",
/// the plant genus *Perotis* the beetles' "Perotis (beetle)".
///
/// - **Title.** The title without a parenthetical qualifier ("Morus (plant)" → "Morus") is one of
///   the taxon's names (scientific name, synonyms, common names), ignoring case, accents and
///   punctuation, the last word also in the other number ("Gannet" for "gannets").
/// - **Opening.** Otherwise the first `openingLength` characters hold the scientific name or a
///   synonym anywhere, a common name of several words anywhere, or a common name of one word as
///   the subject: the opening's first word, or its second after "the", "a" or "an" ("The cat is…").
///   A one-word name further on is seldom the subject: "two small wild cat species" does not make
///   "Wildcat" about the domestic cat.
/// - **Qualifier.** A title whose qualifier names a group ("(plant)", "(beetle)", "(bird)"; see
///   `qualifierGroups`) is refused when the taxon's lineage holds none of that group's names.
enum DescriptionSubject {
    /// The verdict on one text.
    enum Verdict: Equatable {
        /// The title names the taxon.
        case title
        /// The opening names the taxon.
        case opening
        /// Neither names it; the title is the name of an ancestor (the article is about its genus,
        /// family, …): `rank` is that ancestor's.
        case broader(Rank?)
        /// Neither names it.
        case notNamed
        /// The title's qualifier names a group the taxon is not in ("Morus (bird)" for a plant).
        case otherGroup(String)

        var kept: Bool { self == .title || self == .opening }
    }

    /// The opening's length in characters.
    static let openingLength = 250
    /// Words that may come before a one-word common name that is the opening's subject.
    static let articles: Set<String> = ["the", "a", "an"]

    /// The taxon's own names, split into words.
    struct Subject {
        /// The scientific name and synonyms, as words.
        var scientific: [[String]]
        /// Common names, as words.
        var common: [[String]]
    }

    /// An ancestor's names as words, with its rank.
    typealias Ancestor = (names: [[String]], rank: Rank?)

    /// Judges a text titled `title` whose text is `text` for the taxon named `subject`. Its
    /// ancestors (nearest first) and the folded names of its lineage (with the kingdoms' other
    /// names) are asked for only when needed, a qualifier to check or a text naming nothing: a few
    /// texts in a hundred.
    static func judge(
        title: String, text: String, subject: Subject, ancestors: () -> [Ancestor], lineage: () -> Set<String>
    ) -> Verdict {
        let (base, qualifier) = splitQualifier(title)
        if let qualifier, let groups = qualifierGroups[TextFolding.fold(qualifier)] {
            let lineage = lineage()
            if !lineage.isEmpty, lineage.isDisjoint(with: groups) { return .otherGroup(qualifier) }
        }
        let titleWords = words(base)
        if (subject.scientific + subject.common).contains(where: { sameName(titleWords, $0) }) { return .title }
        let opening = words(String(text.prefix(openingLength)))
        if subject.scientific.contains(where: { occurs($0, in: opening, within: opening.count) }) { return .opening }
        let subjectStart = opening.first.map(articles.contains) == true ? 1 : 0
        for name in subject.common {
            if name.count > 1 ? occurs(name, in: opening, within: opening.count) : occurs(name, in: Array(opening.dropFirst(subjectStart)), within: 1) {
                return .opening
            }
        }
        if let ancestor = ancestors().first(where: { $0.names.contains { sameName(titleWords, $0) } }) {
            return .broader(ancestor.rank)
        }
        return .notNamed
    }

    /// "Morus (plant)" → ("Morus", "plant"); a title without a final parenthesis → (title, nil).
    static func splitQualifier(_ title: String) -> (base: String, qualifier: String?) {
        let trimmed = title.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasSuffix(")"), let open = trimmed.lastIndex(of: "("), open > trimmed.startIndex else { return (trimmed, nil) }
        let qualifier = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        return (trimmed[..<open].trimmingCharacters(in: .whitespaces), qualifier.trimmingCharacters(in: .whitespaces))
    }

    /// The words of `text`, folded (lower case, no accents), split at anything but letters and
    /// digits; the hybrid sign's `x` is dropped ("Musa × paradisiaca" = "Musa x paradisiaca").
    static func words(_ text: String) -> [String] {
        TextFolding.fold(text)
            .split(whereSeparator: { !($0.isLetter || $0.isNumber) })
            .map(String.init)
            .filter { $0 != "x" }
    }

    /// Whether two names, as words, are the same name: the same words, the last one possibly in
    /// the other number (English).
    static func sameName(_ a: [String], _ b: [String]) -> Bool {
        guard a.count == b.count, let lastA = a.last, let lastB = b.last else { return false }
        return a.dropLast() == b.dropLast() && sameWord(lastA, lastB)
    }

    static func sameWord(_ a: String, _ b: String) -> Bool {
        a == b || Inflection.areInflections(a, b, lang: "en")
    }

    /// Whether `name` occurs as consecutive words of `text` starting within its first `limit` words.
    static func occurs(_ name: [String], in text: [String], within limit: Int) -> Bool {
        guard let last = name.last else { return false }
        let head = name.dropLast()
        let end = min(limit, text.count - name.count + 1)
        guard end > 0 else { return false }
        for start in 0..<end {
            if text[start..<(start + head.count)].elementsEqual(head), sameWord(text[start + head.count], last) { return true }
        }
        return false
    }

    /// Qualifiers of titles that name a group, with the folded names of the group in a lineage
    /// (Wikipedia's "(plant)", "(moth)", "(gastropod)"…). Qualifiers not listed ("(genus)",
    /// "(crustacean)", "(alga)": groups with no one name in a lineage) are not checked.
    static let qualifierGroups: [String: Set<String>] = {
        let groups: [(qualifiers: [String], names: [String])] = [
            (["plant", "tree", "shrub", "flower", "grass", "orchid"], ["viridiplantae", "plantae"]),
            (["fungus", "lichen", "mushroom"], ["fungi"]),
            (["animal"], ["metazoa", "animalia"]),
            (["bird"], ["aves"]),
            (["mammal"], ["mammalia"]),
            (["bat"], ["chiroptera"]),
            (["rodent"], ["rodentia"]),
            (["fish"], ["actinopteri", "actinopterygii", "chondrichthyes", "cladistia", "coelacanthimorpha", "dipnomorpha", "dipnoi",
                        "hyperoartia", "myxini", "sarcopterygii", "petromyzontida"]),
            (["insect"], ["insecta"]),
            (["moth", "butterfly", "skipper"], ["lepidoptera"]),
            (["beetle"], ["coleoptera"]),
            (["fly"], ["diptera"]),
            (["wasp", "bee", "ant", "sawfly"], ["hymenoptera"]),
            (["bug", "cicada", "planthopper", "leafhopper", "treehopper", "aphid"], ["hemiptera"]),
            (["dragonfly", "damselfly"], ["odonata"]),
            (["grasshopper", "katydid", "cricket", "bush cricket"], ["orthoptera"]),
            (["spider"], ["araneae"]),
            (["arachnid", "mite", "tick"], ["arachnida"]),
            (["harvestman"], ["opiliones"]),
            (["scorpion"], ["scorpiones"]),
            (["gastropod", "snail", "slug"], ["gastropoda"]),
            (["bivalve", "clam"], ["bivalvia"]),
            (["mollusc", "mollusk"], ["mollusca"]),
            (["snake", "lizard"], ["squamata"]),
            (["frog"], ["anura"]),
            (["turtle"], ["testudines"]),
            (["annelid"], ["annelida"]),
            (["nematode"], ["nematoda"]),
            (["flatworm"], ["platyhelminthes"]),
            (["sponge"], ["porifera"]),
            (["coral"], ["anthozoa"]),
            (["cnidarian"], ["cnidaria"]),
            (["echinoderm"], ["echinodermata"]),
            (["bryozoan"], ["bryozoa"]),
            (["bacterium"], ["bacteria"]),
            (["virus"], ["viruses"]),
        ]
        var out: [String: Set<String>] = [:]
        for group in groups { for q in group.qualifiers { out[q] = Set(group.names) } }
        return out
    }()
}
