import Foundation
import GRDB

/// The engine's additions to the specification's schema v1 (DataLoading.md §3), all in one place.
///
/// A database with only the specification's tables serves every method: an extension it lacks is
/// built into it (`build-db` always writes them all; `database/import` builds them into the staged
/// copy) or, for a read-only `--database` file, into a cache in the data directory
/// (`ExtensionCache`). Each extension is all or nothing: its objects are present together or not
/// at all (import validation refuses a partial one).
public enum SchemaExtensions {
    /// One optional extension.
    public enum Extension: String, CaseIterable, Sendable {
        /// `dataset_info (key, value)`: the dataset's name, version, licence, credits and `top_n`.
        case datasetInfo
        /// `search_names`: exact matches, autocomplete and word-internal search over every name,
        /// folded; `fts_words` and `fts_word_trigrams`: the vocabulary of distinct words that
        /// typo-tolerant search compares with. (Earlier builds also wrote `fts_trigram`; see
        /// `retiredObjects`.)
        case searchIndex
        /// `taxa.child_count`, stored so that a lineage is a walk of primary-key lookups (without
        /// it the engine counts children per query).
        case childCount
        /// The engine's own indexes on the specification's tables (sibling order, case-insensitive
        /// names, names by language).
        case indexes
        /// `name_heads`: the head and compound parts of every common name (`NameStructure`);
        /// `taxon_prominence`: how well known each taxon is (`Prominence`). Search ranks by both.
        case searchRanking
        /// `descriptions (taxon_id, lang, text, source_title, source_url, license, source_name)`: a text about
        /// the taxon per language, with its attribution (`taxon/detail`). Content of its own: a
        /// database without it has no descriptions, and nothing builds it.
        case descriptions
        /// `name_sources (name_id, source)`: where a name merged from another source than the
        /// backbone came from (`build-db --names-from-…`). Content of its own, like `descriptions`.
        case nameSources

        /// Whether it can live in a separate cache database (it adds tables, not columns or indexes
        /// of the specification's tables).
        public var cacheable: Bool { self == .datasetInfo || self == .searchIndex || self == .searchRanking }

        /// Whether it is derived from the specification's tables, so that it can be built into a
        /// database that lacks it (import, the extension cache). `descriptions` and `nameSources`
        /// hold content of their own: a database without them simply has none.
        public var derived: Bool { self != .descriptions && self != .nameSources }
    }

    /// A relaxation rather than an object: `taxa.rank` may be NULL, for sources without ranks
    /// (Open Tree). Import accepts the column with or without NOT NULL.
    static let nullableColumns: Set<String> = ["taxa.rank"]

    /// Values an engine extension adds to a column's CHECK set (`taxa.rank`: the ranks below
    /// species). Import accepts the specification's narrower set as well.
    static let widenedChecks: [String: [String]] = ["taxa.rank": ["subspecies", "variety"]]

    /// The SQL that creates `extension` (empty; `build` fills it).
    public static func createSQL(_ extension: Extension) -> String {
        switch `extension` {
        case .datasetInfo:
            """
            CREATE TABLE dataset_info (
                key   TEXT PRIMARY KEY,
                value TEXT NOT NULL
            ) WITHOUT ROWID;
            """
        case .searchIndex:
            """
            -- Every searchable name once, folded (lower case, no diacritics), for exact matches,
            -- autocomplete and typo-tolerant candidates.
            CREATE TABLE search_names (
                id         INTEGER PRIMARY KEY,
                taxon_id   INTEGER NOT NULL,
                name       TEXT NOT NULL,
                folded     TEXT NOT NULL,
                match_type TEXT NOT NULL CHECK (match_type IN ('scientific','common','synonym')),
                lang       TEXT
            );
            CREATE INDEX idx_search_names_folded ON search_names(folded);
            CREATE INDEX idx_search_names_taxon ON search_names(taxon_id);
            -- The vocabulary for typos: every distinct word of fts_taxa with four letters or more and
            -- no digits, padded with a space at both ends, rowid = length << 32 | n (WordVocabulary).
            CREATE VIRTUAL TABLE fts_words USING fts5(
                padded,
                tokenize = 'trigram',
                detail = 'none',
                columnsize = 0
            );
            -- How many words hold each trigram, so a typo search looks up only the rarest ones. (Not
            -- named fts_words_vocab: with that name SQLite 3.40's integrity_check skips the freelist.)
            CREATE VIRTUAL TABLE fts_word_trigrams USING fts5vocab('fts_words', 'row');
            """
        case .childCount:
            "ALTER TABLE taxa ADD COLUMN child_count INTEGER NOT NULL DEFAULT 0;"
        case .indexes:
            """
            CREATE INDEX idx_taxa_parent_name ON taxa(parent_id, scientific_name);
            CREATE INDEX idx_taxa_scientific_name ON taxa(scientific_name COLLATE NOCASE);
            CREATE INDEX idx_names_taxon_lang ON names(taxon_id, lang);
            CREATE INDEX idx_names_name ON names(name COLLATE NOCASE);
            """
        case .descriptions:
            """
            -- A text about a taxon in one language, with its attribution: the title of its source
            -- (a Wikipedia article), a link, the licence it is under and who published it
            -- ("English Wikipedia", the dataset's name).
            CREATE TABLE descriptions (
                taxon_id     INTEGER NOT NULL REFERENCES taxa(id),
                lang         TEXT    NOT NULL,
                text         TEXT    NOT NULL,
                source_title TEXT,
                source_url   TEXT,
                license      TEXT,
                source_name  TEXT,
                PRIMARY KEY (taxon_id, lang)
            ) WITHOUT ROWID;
            """
        case .nameSources:
            """
            -- The source of each name merged into the backbone from another source (MDD, AviList,
            -- a ColDP or DwC-A); names without a row come from the taxa's own source.
            CREATE TABLE name_sources (
                name_id INTEGER PRIMARY KEY REFERENCES names(id),
                source  TEXT NOT NULL
            );
            """
        case .searchRanking:
            """
            -- The head of each common name of search_names (by its id), folded, and the name's words
            -- with compound words split into parts by '|' (NULL when none is split).
            CREATE TABLE name_heads (
                name_id INTEGER PRIMARY KEY,
                head    TEXT NOT NULL,
                parts   TEXT
            );
            CREATE INDEX idx_name_heads_head ON name_heads(head);
            -- How well known each taxon is, in thousandths (-1000: viruses, hybrids, samples); no row: 0.
            CREATE TABLE taxon_prominence (
                taxon_id   INTEGER PRIMARY KEY,
                prominence INTEGER NOT NULL
            );
            CREATE INDEX idx_taxon_prominence ON taxon_prominence(prominence);
            """
        }
    }

    /// Every extension's SQL, in order (after the specification's).
    public static var allSQL: String { Extension.allCases.map(createSQL).joined(separator: "\n") }

    /// The schema objects (tables, virtual tables, indexes) an extension creates, read back from
    /// its SQL; none for `childCount`, which adds a column.
    static let objects: [Extension: [String]] = {
        var out: [Extension: [String]] = [:]
        for e in Extension.allCases where e != .childCount {
            out[e] = (try? DatabaseQueue().write { db -> [String] in
                if e == .indexes { try db.execute(sql: "CREATE TABLE taxa(parent_id, scientific_name); CREATE TABLE names(taxon_id, lang, name);") }
                let before = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master"))
                try db.execute(sql: createSQL(e))
                return try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").filter { !before.contains($0) }
            }) ?? []
        }
        return out
    }()

    /// Columns an extension adds to a specification table, as `table.column`.
    static let optionalColumns: [String: Extension] = ["taxa.child_count": .childCount]

    /// The extension an object or column (`table.column`) belongs to, if any.
    static func owner(of name: String) -> Extension? {
        optionalColumns[name] ?? objects.first { $0.value.contains(name) }?.key
    }

    /// The extensions schema `schema` of `db` holds completely, given the names of its objects.
    static func present(_ db: Database, schema: String = "main") throws -> Set<Extension> {
        let names = Set(try String.fetchAll(db, sql: "SELECT name FROM \(schema).sqlite_master"))
        var out: Set<Extension> = []
        for (e, objects) in objects where objects.allSatisfy(names.contains) { out.insert(e) }
        if names.contains("taxa"), try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM pragma_table_info('taxa', ?) WHERE name = 'child_count')", arguments: [schema]) == true {
            out.insert(.childCount)
        }
        return out
    }

    /// The content extensions (`descriptions`, `nameSources`) of schema `main` of `db` that the
    /// engine reads: present, with every column it reads, and not empty (so that a database
    /// without any, like the embedded one without merged names, costs no query). Import validates
    /// them column by column; a `--database` file is served as it is, and a table of that name
    /// with other columns is ignored rather than failing every read.
    static func readableContent(_ db: Database) throws -> Set<Extension> {
        let columns: [Extension: [String]] = [
            .descriptions: ["taxon_id", "lang", "text", "source_title", "source_url", "license", "source_name"],
            .nameSources: ["name_id", "source"],
        ]
        var out: Set<Extension> = []
        for (e, needed) in columns {
            guard let table = objects[e]?.first, try db.tableExists(table) else { continue }
            let found = Set(try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table]))
            guard needed.allSatisfy(found.contains) else { continue }
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table))") == true { out.insert(e) }
        }
        return out
    }

    /// Builds `extensions` into schema `main` of `db`, reading taxa, names and relatives from schema
    /// `source` (`main` itself, or an attached read-only database). `progress` is told each one.
    /// `dataset_info` gets `info` plus `top_n`, the most relatives stored for one species.
    public static func build(
        _ extensions: [Extension], in db: Database, source: String = "main", info: [String: String] = [:],
        progress: (Extension) -> Void = { _ in }
    ) throws {
        for e in Extension.allCases where extensions.contains(e) {
            progress(e)
            try db.execute(sql: createSQL(e))
            switch e {
            case .datasetInfo:
                var values = info
                if values["top_n"] == nil, try db.tableExists("top_n_relatives", in: source),
                   let n = try Int.fetchOne(db, sql: "SELECT max(c) FROM (SELECT count(*) AS c FROM \(source).top_n_relatives GROUP BY taxon_id)") {
                    values["top_n"] = String(n)
                }
                for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                    try db.execute(sql: "INSERT OR REPLACE INTO dataset_info(key, value) VALUES (?, ?)", arguments: [key, value])
                }
            case .searchIndex:
                try fillSearchIndex(db, source: source)
            case .childCount:
                try db.execute(sql: """
                    UPDATE taxa SET child_count = c.n
                    FROM (SELECT parent_id, count(*) AS n FROM taxa WHERE parent_id IS NOT NULL GROUP BY parent_id) AS c
                    WHERE taxa.id = c.parent_id
                    """)
            case .indexes, .descriptions, .nameSources:
                break
            case .searchRanking:
                try fillSearchRanking(db, source: source)
            }
        }
    }

    /// Fills `name_heads` from the `search_names` of `main` (when it is there, as in a build or an
    /// extension cache building both) or of `source`, and `taxon_prominence` from `source`.
    package static func fillSearchRanking(_ db: Database, source: String) throws {
        try NameHeads.fill(db, namesSchema: try db.tableExists("search_names", in: "main") ? "main" : source)
        try Prominence.fill(db, source: source)
    }

    /// Fills `search_names` (`fillSearchNames`), then `fts_words` from the words of `fts_taxa`
    /// (`fillWordVocabulary`).
    package static func fillSearchIndex(_ db: Database, source: String) throws {
        try fillSearchNames(db, source: source)
        try fillWordVocabulary(db, source: source)
    }

    /// Fills `fts_words` from the words of `source`'s `fts_taxa` (see `WordVocabulary`).
    package static func fillWordVocabulary(_ db: Database, source: String) throws {
        try WordVocabulary.fill(db, source: source)
    }

    /// Fills `search_names`: per taxon in id order, its scientific name, then each of its names in
    /// id order whose folded form is new for the taxon (synonyms as `synonym`), or, for the other
    /// types (as `common`), new for the taxon in its language.
    package static func fillSearchNames(_ db: Database, source: String) throws {
        var insertSearch = try BatchedInsert(db, into: "search_names", columns: ["id", "taxon_id", "name", "folded", "match_type", "lang"])
        var searchID: Int64 = 0
        func add(_ taxon: Int64, _ name: String, _ folded: String, _ type: String, _ lang: String?) throws {
            searchID += 1
            try insertSearch.append(.int(searchID), .int(taxon), .text(name), .text(folded), .text(type), .optional(lang))
        }
        let rows = try Row.fetchCursor(db, sql: """
            SELECT t.id, CAST(t.scientific_name AS TEXT), CAST(n.name AS TEXT), CAST(n.lang AS TEXT), CAST(n.name_type AS TEXT)
            FROM \(source).taxa t LEFT JOIN \(source).names n ON n.taxon_id = t.id
            ORDER BY t.id, n.id
            """)
        // Foundation's trim bridges every string; a name that starts and ends with an ASCII byte
        // other than space or tab (nearly all of them) has nothing to trim.
        func trimmed(_ text: String) -> String {
            let utf8 = text.utf8
            guard let first = utf8.first, let last = utf8.last else { return text }
            func plain(_ byte: UInt8) -> Bool { byte < 0x80 && byte != 0x20 && byte != 0x09 }
            return plain(first) && plain(last) ? text : text.trimmingCharacters(in: .whitespaces)
        }
        var current: Int64?
        // The folded forms the current taxon has so far: usually a few, so a list rather than a set
        // per taxon; past `listed` of them (a taxon may have thousands of names), a set as well.
        var seen: [String] = []
        var seenMany: Set<String> = []
        let listed = 16
        while let row = try rows.next() {
            let id: Int64 = row[0]
            if id != current {
                current = id
                let scientific = trimmed((row[1] as String?) ?? "")
                let folded = TextFolding.fold(scientific)
                try add(id, scientific, folded, "scientific", nil)
                seen.removeAll(keepingCapacity: true)
                seenMany.removeAll()
                seen.append(folded)
            }
            guard let raw = row[2] as String? else { continue }
            let name = trimmed(raw)
            let folded = TextFolding.fold(name)
            guard !folded.isEmpty else { continue }
            let type = (row[4] as String?) == "synonym" ? "synonym" : "common"
            // A common name once per language: search answers in the language asked ("Tiger" is
            // English and German); a synonym once.
            let key = type == "common" ? folded + "\u{1}" + ((row[3] as String?) ?? "") : folded
            if seen.count < listed {
                guard !seen.contains(key) else { continue }
                seen.append(key)
            } else {
                if seenMany.isEmpty { seenMany = Set(seen) }
                guard seenMany.insert(key).inserted else { continue }
            }
            try add(id, name, folded, type, row[3])
        }
        try insertSearch.finish()
    }
}
