import GRDB

/// Fills `name_heads` (part of the `searchRanking` extension): the head and compound parts
/// (`NameStructure`) of every common name of `search_names`, keyed by its id.
///
/// Compounds are split against the words the database itself knows in the name's language (every
/// word of three letters or more of its common names in that language, and, inferred, their
/// singulars) plus the lexicon's `[words]` (`Lexicon`, `CompoundSplitter`): in German `Wale` makes
/// `wal` known, which splits "Blauwal" into Blau|wal.
enum NameHeads {
    /// Fills `name_heads` of schema `main` from `schema`'s `search_names`.
    static func fill(_ db: Database, namesSchema schema: String) throws {
        // The common names, read once (a few percent of all names).
        var names: [(id: Int64, folded: String, lang: String?)] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT id, CAST(folded AS TEXT), CAST(lang AS TEXT) FROM \(schema).search_names WHERE match_type = 'common' ORDER BY id")
        while let row = try rows.next() {
            guard let folded = row[1] as String? else { continue }
            names.append((row[0], folded, Inflection.primary(row[2] as String?)))
        }
        // The words each compounding language knows: its names' words as written, and their singulars.
        var known: [String: Set<String>] = [:], inferred: [String: Set<String>] = [:]
        for name in names {
            guard let lang = name.lang, NameStructure.compounding.contains(lang) else { continue }
            for word in SearchQuery.words(ofFolded: name.folded) where word.count >= CompoundSplitter.minimumPart {
                known[lang, default: []].insert(word)
                inferred[lang, default: []].formUnion(Inflection.lemmas(word, lang: lang).filter { $0.count >= CompoundSplitter.minimumPart })
            }
        }
        var splitters: [String: CompoundSplitter] = [:]
        for (lang, words) in known {
            splitters[lang] = CompoundSplitter(known: words.union(Lexicon.of(lang).words), inferred: inferred[lang] ?? [], lang: lang)
        }
        var insert = try BatchedInsert(db, into: "name_heads", columns: ["name_id", "head", "parts"])
        for name in names {
            let splitter = name.lang.flatMap { splitters[$0] }
            guard let structure = NameStructure.of(folded: name.folded, lang: name.lang, lexicon: Lexicon.of(name.lang), splitter: splitter) else { continue }
            try insert.append(.int(name.id), .text(structure.head), .optional(structure.parts))
        }
        try insert.finish()
    }
}
