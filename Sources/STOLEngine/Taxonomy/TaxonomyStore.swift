import Foundation
import GRDB
import STOLProtocol

/// The browse queries over one taxonomy database.
public struct TaxonomyStore: Sendable {
    public let database: TaxonomyDatabase
    /// `selectTaxon(in: database)`.
    let select: String

    public init(database: TaxonomyDatabase) {
        self.database = database
        self.select = Self.selectTaxon(in: database)
    }

    /// Filters, order and paging for `children`.
    public struct ChildQuery: Sendable {
        public var parentID: Int64
        public var limit: Int
        /// Resume after this child (the last of the previous page, in `order`).
        public var after: ChildPosition?
        public var rank: Rank?
        public var conservation: ConservationStatus?
        public var lang: String
        public var order: ChildOrder

        public init(
            parentID: Int64, limit: Int, after: ChildPosition? = nil, rank: Rank? = nil, conservation: ConservationStatus? = nil,
            lang: String = "en", order: ChildOrder = .scientific
        ) {
            self.parentID = parentID
            self.limit = limit
            self.after = after
            self.rank = rank
            self.conservation = conservation
            self.lang = lang
            self.order = order
        }
    }

    /// One page of children, and where the next one starts (nil when this is the last).
    public struct ChildPage: Sendable {
        public var children: [Taxon]
        public var next: ChildPosition?
    }

    /// The taxon with `id`, with its preferred name in `lang` and child count.
    /// Taxa read before come from the database's `TaxonCache`.
    public func taxon(_ id: Int64, lang: String = "en") async throws -> Taxon {
        if let cached = database.taxonCache.taxon(id, lang: lang) { return cached }
        return try await database.read { db in try self.disambiguatedTaxon(db, id, lang: lang) }
    }

    /// `taxon(_:lang:)` read inline, on the calling thread (`TaxonomyDatabase.readInline`).
    @available(*, noasync, message: "blocks the calling thread; use taxon(_:lang:) from async code")
    public func taxonInline(_ id: Int64, lang: String = "en") throws -> Taxon {
        if let cached = database.taxonCache.taxon(id, lang: lang) { return cached }
        return try database.readInline { db in try disambiguatedTaxon(db, id, lang: lang) }
    }

    /// Reads a taxon whole (with its disambiguation) and keeps it in the cache.
    private func disambiguatedTaxon(_ db: Database, _ id: Int64, lang: String) throws -> Taxon {
        var (taxon, nameShared) = try taxonAndNameShared(db, id, lang: lang)
        if nameShared {
            taxon.disambiguation = try Homonyms.disambiguation(id: id, scientificName: taxon.scientificName, rank: taxon.rank, in: db)
        }
        database.taxonCache.keep(taxon, lang: lang)
        return taxon
    }

    /// The disambiguation of each of `ids` whose scientific name is shared (favourites keep ids);
    /// ids not in the database are left out.
    public func disambiguations(_ ids: [Int64]) async throws -> [Int64: Disambiguation] {
        try await database.read { db in
            var out: [Int64: Disambiguation] = [:]
            let statement = try db.cachedStatement(sql: "SELECT scientific_name, rank, id FROM taxa WHERE id = ?")
            for id in ids {
                guard let (name, rank) = try statement.firstStoredRow([id], rowids: [("taxa", 2)], { row in
                    (try row.text(0, "taxa.scientific_name"), try row.memberOrNull(Rank.self, 1, "taxa.rank"))
                }) else { continue }
                out[id] = try Homonyms.disambiguation(id: id, scientificName: name, rank: rank, in: db)
            }
            return out
        }
    }

    /// Taxa without a parent, by scientific name.
    public func roots(lang: String = "en") async throws -> [Taxon] {
        try await database.read { db in
            var roots = try db.storedRows(select + " WHERE t.parent_id IS NULL ORDER BY t.scientific_name, t.id", Self.arguments(lang), rowids: Self.taxaRowIDs, Self.taxon(from:))
            try Homonyms.disambiguate(&roots, in: db)
            return roots
        }
    }

    /// One page of children, in `query.order` (`TaxonomyStore+ChildOrder.swift`).
    public func children(_ query: ChildQuery) async throws -> ChildPage {
        try await database.read { db in
            _ = try self.taxon(db, query.parentID, lang: query.lang)
            var page = try query.order == .scientific ? self.childrenByScientificName(db, query) : self.childrenByCommonName(db, query)
            try Homonyms.disambiguate(&page.children, in: db)
            return page
        }
    }

    /// Ancestors from the root down to the parent.
    public func ancestors(_ id: Int64, lang: String = "en") async throws -> [Taxon] {
        try await database.read { db in
            let taxon = try self.taxon(db, id, lang: lang)
            var lineage = try self.ancestors(db, of: taxon, lang: lang)
            try Homonyms.disambiguate(&lineage, in: db)
            return lineage
        }
    }

    /// Names of a taxon, optionally in one language (synonyms are always included).
    public func names(_ id: Int64, lang: String? = nil) async throws -> [TaxonName] {
        try await database.read { db in
            _ = try self.taxon(db, id, lang: "en")
            return try Self.names(db, id, lang: lang, in: self.database)
        }
    }

    /// A taxon's traits, keys and values in `lang` where `TraitTranslations` can.
    public func traits(_ id: Int64, lang: String = "en") async throws -> [Trait] {
        try await database.read { db in
            _ = try self.taxon(db, id, lang: "en")
            return try Self.traits(db, id).map { TraitTranslations.shipped.localized($0, to: lang) }
        }
    }

    public func references(_ id: Int64) async throws -> [Reference] {
        try await database.read { db in
            _ = try self.taxon(db, id, lang: "en")
            return try Self.references(db, id)
        }
    }

    /// The species screen in one call, read in one go from one connection.
    public func detail(_ id: Int64, lang: String = "en") async throws -> TaxonDetail {
        try await database.read { db in
            var taxon = try self.taxon(db, id, lang: lang)
            taxon.disambiguation = try Homonyms.disambiguation(id: id, scientificName: taxon.scientificName, rank: taxon.rank, in: db)
            var lineage = try self.ancestors(db, of: taxon, lang: lang)
            try Homonyms.disambiguate(&lineage, in: db)
            let names = try Self.names(db, id, lang: nil, in: self.database)
            var byLanguage: [String: [TaxonName]] = [:]
            for name in names where name.type != .synonym { byLanguage[name.lang, default: []].append(name) }
            return TaxonDetail(
                taxon: taxon,
                preferredCommonName: taxon.preferredCommonName,
                preferredCommonNameLang: taxon.preferredCommonNameLang,
                lineage: lineage,
                names: byLanguage,
                synonyms: names.filter { $0.type == .synonym },
                traits: try Self.traits(db, id).map { TraitTranslations.shipped.localized($0, to: lang) },
                references: try Self.references(db, id),
                childCount: taxon.childCount ?? 0,
                sharedName: try SharedName.find(
                    id: id, scientificName: taxon.scientificName, rank: taxon.rank, commonName: taxon.preferredCommonName,
                    lang: taxon.preferredCommonNameLang, in: db),
                description: try Self.description(db, id, lang: lang, in: self.database))
        }
    }

    // MARK: Queries on one connection

    private func taxon(_ db: Database, _ id: Int64, lang: String) throws -> Taxon {
        try taxonAndNameShared(db, id, lang: lang).taxon
    }

    /// The busiest query (`taxon/get`): a cached statement read through SQLite's C API, which
    /// also says whether another taxon has the same scientific name (then `Homonyms` has work).
    private func taxonAndNameShared(_ db: Database, _ id: Int64, lang: String) throws -> (taxon: Taxon, nameShared: Bool) {
        let sql = database.storesChildCounts ? Self.selectStoredByID : Self.selectCountedByID
        let found = try db.cachedStatement(sql: sql).firstStoredRow(
            binding: [":id": .int(id), ":lang": .text(lang), ":primary": .text(Self.primaryLanguage(lang))], rowids: Self.taxaRowIDs
        ) { row in (try Self.taxon(from: row), try row.integer(10, "name_shared") == 1) }
        guard let found else { throw TaxonomyError.taxonNotFound(id) }
        return found
    }

    private func ancestors(_ db: Database, of taxon: Taxon, lang: String) throws -> [Taxon] {
        // Each step reads the parent through a subquery: written as a join, SQLite builds a Bloom
        // filter over the whole taxa table at every step (0.8 s per lineage on NCBI's 2.26 M taxa).
        // One step more than a lineage may have, so that a cycle or a deeper chain shows.
        let sql = """
            WITH RECURSIVE up(id, level) AS (
                SELECT parent_id, 1 FROM taxa WHERE id = :id AND parent_id IS NOT NULL
                UNION ALL
                SELECT (SELECT t.parent_id FROM taxa t WHERE t.id = up.id), up.level + 1 FROM up
                WHERE up.id IS NOT NULL AND up.level <= \(TaxonomyLimits.maxDepth)
            )
            \(select) JOIN up ON up.id = t.id ORDER BY up.level DESC
            """
        let lineage = try db.storedRows(sql, Self.arguments(lang, ["id": taxon.id]), rowids: Self.taxaRowIDs, Self.taxon(from:))
        try Self.checkRooted(lineage.map { ($0.id, $0.parentId) }, of: (taxon.id, taxon.parentId))
        return lineage
    }

    /// Checks that `lineage` (id and parent id, root first), read by walking up from `taxon`
    /// (id and parent id) with one step more than `TaxonomyLimits.maxDepth`, starts at a root; a
    /// `DataFault` otherwise. A walk that stops below a root met a parent that names no taxon; one
    /// that took every step met a parent cycle or a tree deeper than the engine serves.
    static func checkRooted(_ lineage: [(id: Int64, parent: Int64?)], of taxon: (id: Int64, parent: Int64?)) throws {
        if lineage.count > TaxonomyLimits.maxDepth { throw DataFault.lineage(tooDeep: taxon.id) }
        let top = lineage.first ?? taxon
        if let parent = top.parent { throw DataFault.lineage(of: taxon.id, orphan: top.id, parent: parent) }
    }

    private static func names(_ db: Database, _ id: Int64, lang: String?, in database: TaxonomyDatabase) throws -> [TaxonName] {
        var sql = "SELECT name, lang, name_type, is_preferred, id FROM names WHERE taxon_id = ?"
        var arguments: StatementArguments = [id]
        if let lang {
            // The language's names whatever their region: `de-DE` gives `de` and `de-AT` names too.
            let primary = Self.primaryLanguage(lang)
            let regional = Self.regionalTags(of: primary)
            sql += " AND (lang = ? OR (lang >= ? AND lang < ?) OR name_type = 'synonym')"
            arguments += [primary, regional.lower, regional.upper]
        }
        sql += " ORDER BY name_type = 'synonym', lang, is_preferred DESC, id"
        let sources = try nameSources(db, id, in: database)
        return try db.storedRows(sql, arguments, rowids: [("names", 4)]) { row in
            var name = try Self.name(from: row)
            if !sources.isEmpty { name.source = sources[try row.integer(4, "names.id")] }
            return name
        }
    }

    /// A taxon's traits by key and value, each with its unit and linked reference.
    static func traits(_ db: Database, _ id: Int64) throws -> [Trait] {
        try db.storedRows("""
            SELECT x.trait_key, x.trait_value, x.unit, r.citation, r.url, r.ref_type, x.id, r.id
            FROM traits x LEFT JOIN refs r ON r.id = x.source_ref
            WHERE x.taxon_id = ? ORDER BY x.trait_key, x.trait_value, x.unit, x.id
            """, [id], rowids: [("traits", 6), ("refs", 7)]) { row in
                let source = try row.textOrNull(3, "refs.citation").map { citation in
                    Reference(citation: citation, url: try row.textOrNull(4, "refs.url"), type: try row.text(5, "refs.ref_type"))
                }
                return Trait(key: try row.text(0, "traits.trait_key"), value: try row.text(1, "traits.trait_value"), unit: try row.textOrNull(2, "traits.unit"), source: source)
            }
    }

    private static func references(_ db: Database, _ id: Int64) throws -> [Reference] {
        try db.storedRows("SELECT citation, url, ref_type, id FROM refs WHERE taxon_id = ? ORDER BY id", [id], rowids: [("refs", 3)]) { row in
            Reference(citation: try row.text(0, "refs.citation"), url: try row.textOrNull(1, "refs.url"), type: try row.text(2, "refs.ref_type"))
        }
    }

    // MARK: SQL

    /// Selects a taxon with its preferred common name (named arguments `lang` and `primary`, the
    /// primary language subtag) and child count. The name falls back to English; it comes as
    /// `lang U+001F name` in one column, so one subquery gives both (`commonName(from:)`).
    static func selectTaxon(in database: TaxonomyDatabase) -> String {
        database.storesChildCounts ? selectTaxonStored : selectTaxonCounted
    }

    /// The common name is the best of the taxon's names by a score: the requested language (4),
    /// then its primary subtag (2), then preferred (1); the lowest id among equals. Taking the
    /// `max()` with bare columns (SQLite keeps them from the row holding the maximum) and comparing
    /// with `=` instead of an `IN` list spares SQLite a sorter and a temporary index per taxon,
    /// which were two thirds of a `taxon/get`.
    private static let selectColumns = """
        SELECT t.id, t.parent_id, t.rank, t.scientific_name, t.author, t.year, t.status, t.conservation,
            (SELECT best.lang || char(31) || best.name FROM (
                SELECT n.lang, n.name, max(((n.lang = :lang) * 4 + (n.lang = :primary) * 2 + (n.is_preferred > 0)) * 4294967296 - n.id)
                FROM names n
                WHERE n.taxon_id = t.id AND (+n.lang = :lang OR +n.lang = :primary OR +n.lang = 'en')
                    AND (+n.name_type = 'common' OR +n.name_type = 'vernacular')) best
             WHERE best.name IS NOT NULL) AS common_name,
        """
    private static let storedChildCount = " t.child_count AS child_count"
    /// For databases built before `child_count` was stored.
    private static let countedChildCount = " (SELECT count(*) FROM taxa c WHERE c.parent_id = t.id) AS child_count"
    private static let selectTaxonStored = selectColumns + storedChildCount + " FROM taxa t"
    private static let selectTaxonCounted = selectColumns + countedChildCount + " FROM taxa t"
    /// One taxon (`:id`), plus whether another taxon has its scientific name, in the index's
    /// case-folded collation (`Homonyms` then keeps exact matches).
    private static let nameSharedByID = """
        , EXISTS (SELECT 1 FROM taxa h WHERE h.scientific_name = t.scientific_name COLLATE NOCASE AND h.id <> t.id) AS name_shared
        FROM taxa t WHERE t.id = :id
        """
    private static let selectStoredByID = selectColumns + storedChildCount + nameSharedByID
    private static let selectCountedByID = selectColumns + countedChildCount + nameSharedByID

    /// Named arguments for `selectTaxon` plus `extra`.
    static func arguments(_ lang: String, _ extra: [String: (any DatabaseValueConvertible)?] = [:]) -> StatementArguments {
        var values = extra
        values["lang"] = lang
        values["primary"] = primaryLanguage(lang)
        return StatementArguments(values)
    }

    /// The primary subtag of a language tag: `pt` for `pt-BR`.
    static func primaryLanguage(_ lang: String) -> String {
        String(lang.split(separator: "-").first ?? Substring(lang))
    }

    /// Bounds of the regional tags of `lang` (`en-GB`, `en-US` for `en`): `lower <= tag < upper`.
    /// A range, not `LIKE 'en-%'`: a bound `LIKE` pattern makes SQLite prepare the statement again
    /// on every execution.
    static func regionalTags(of lang: String) -> (lower: String, upper: String) {
        (lang + "-", lang + ".")
    }

    /// Where a row of `selectTaxon` holds its rowid.
    static let taxaRowIDs: StoredRow.RowIDs = [("taxa", 0)]

    /// A row of `selectTaxon`, by column position (name lookups were a visible cost per taxon);
    /// the rowid in column 0.
    static func taxon(from row: StoredRow) throws -> Taxon {
        let common = commonName(from: try row.textOrNull(8, "names.name"))
        return Taxon(
            id: try row.taxonID(0, "taxa.id"), parentId: try row.taxonIDOrNull(1, "taxa.parent_id"),
            rank: try row.memberOrNull(Rank.self, 2, "taxa.rank"),
            scientificName: try row.text(3, "taxa.scientific_name"), author: try row.textOrNull(4, "taxa.author"),
            year: try row.integerOrNull(5, "taxa.year").map { Int(truncatingIfNeeded: $0) },
            status: try row.member(TaxonStatus.self, 6, "taxa.status"),
            conservationStatus: try row.memberOrNull(ConservationStatus.self, 7, "taxa.conservation"),
            preferredCommonName: common?.name, preferredCommonNameLang: common?.lang,
            childCount: try row.integerOrNull(9, "taxa.child_count").map { Int(truncatingIfNeeded: $0) })
    }

    /// The `lang U+001F name` column of `selectTaxon` split in two.
    static func commonName(from column: String?) -> (lang: String, name: String)? {
        guard let column, let separator = column.utf8.firstIndex(of: 0x1F) else { return nil }
        return (String(column[..<separator]), String(column[column.utf8.index(after: separator)...]))
    }

    /// A row of `names`: name, lang, name_type, is_preferred.
    static func name(from row: StoredRow) throws -> TaxonName {
        TaxonName(name: try row.text(0, "names.name"), lang: try row.text(1, "names.lang"),
                  type: try row.member(NameType.self, 2, "names.name_type"), isPreferred: try row.flag(3, "names.is_preferred"))
    }
}

/// Domain errors of taxonomy lookups, with their protocol mapping.
public enum TaxonomyError: Error, Sendable, Equatable {
    case taxonNotFound(Int64)
}
