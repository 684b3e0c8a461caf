import GRDB
import STOLProtocol

// The orders of `taxon/children`, and the queries behind them.
//
// By scientific name: one range of `idx_taxa_parent_name (parent_id, scientific_name)` from the
// cursor on, `LIMIT` rows; a page costs its own rows.
//
// By common name, the children come in two groups. First those with a common name in the asked
// language (the tag or its primary language), A–Z by that name, case and accents aside; then the
// others, A–Z by scientific name. The second group is the scientific order's range scan with a
// `NOT EXISTS` probe of `idx_names_taxon_lang (taxon_id, lang)` per child, so its pages cost their
// own rows (plus the named children they step over). The first group's order exists in no index
// (it depends on the language, and on names rather than taxa): a page of it reads every child of
// the parent through `idx_taxa_parent_name`, probes the names index for each, and sorts only the
// named ones, in memory. Its cost follows the size of the level, not of the page, and such pages
// are few: as many as the named children fill.

extension TaxonomyStore {
    /// The sort key of one child: where a page ended, and so where the next one starts.
    public struct ChildPosition: Sendable, Equatable {
        /// In the common-name order: the child's common name in the asked language; nil when it
        /// has none (it is in the second group), and always nil in the scientific order.
        public var commonName: String?
        public var scientificName: String
        public var id: Int64

        public init(commonName: String? = nil, scientificName: String, id: Int64) {
            self.commonName = commonName
            self.scientificName = scientificName
            self.id = id
        }
    }

    /// A page by scientific name: one index range from the cursor on.
    func childrenByScientificName(_ db: Database, _ query: ChildQuery) throws -> ChildPage {
        var (sql, values) = childFilter(query)
        if let after = query.after {
            sql += " AND (t.scientific_name > :afterName OR (t.scientific_name = :afterName AND t.id > :afterID))"
            values["afterName"] = after.scientificName
            values["afterID"] = after.id
        }
        sql += " ORDER BY t.scientific_name, t.id LIMIT :limit"
        values["limit"] = query.limit + 1
        let rows = try db.storedRows(sql, Self.arguments(query.lang, values), rowids: Self.taxaRowIDs, Self.taxon(from:))
        let page = Array(rows.prefix(query.limit))
        let next = rows.count > query.limit ? page.last.map { ChildPosition(scientificName: $0.scientificName, id: $0.id) } : nil
        return ChildPage(children: page, next: next)
    }

    /// A page by common name in `query.lang`: the named children after the cursor, sorted, then
    /// (once they run out) the others by scientific name.
    func childrenByCommonName(_ db: Database, _ query: ChildQuery) throws -> ChildPage {
        var page: [Taxon] = []
        var next: ChildPosition?
        let primary = Self.primaryLanguage(query.lang)
        // A cursor with a scientific name but no common name is already in the second group.
        let inFirstGroup = query.after == nil || query.after?.commonName != nil
        if inFirstGroup {
            var (sql, values) = childFilter(query)
            sql += " AND EXISTS (\(Self.nameInLanguage))"
            let named = try db.storedRows(sql, Self.arguments(query.lang, values), rowids: Self.taxaRowIDs, Self.taxon(from:))
                .compactMap { taxon -> (key: CommonKey, taxon: Taxon)? in
                    // The preferred name is in the asked language whenever the taxon has one in it.
                    guard let name = taxon.preferredCommonName, taxon.preferredCommonNameLang == query.lang || taxon.preferredCommonNameLang == primary else { return nil }
                    return (CommonKey(name: name, scientificName: taxon.scientificName, id: taxon.id), taxon)
                }
            let after = query.after.flatMap { p in p.commonName.map { CommonKey(name: $0, scientificName: p.scientificName, id: p.id) } }
            let remaining = named.filter { after.map($0.key.follows) ?? true }.sorted { $1.key.follows($0.key) }
            page = remaining.prefix(query.limit).map(\.taxon)
            if remaining.count > query.limit, let last = page.last {
                return ChildPage(children: page, next: ChildPosition(commonName: last.preferredCommonName, scientificName: last.scientificName, id: last.id))
            }
        }
        var (sql, values) = childFilter(query)
        sql += " AND NOT EXISTS (\(Self.nameInLanguage))"
        if let after = query.after, !inFirstGroup {
            sql += " AND (t.scientific_name > :afterName OR (t.scientific_name = :afterName AND t.id > :afterID))"
            values["afterName"] = after.scientificName
            values["afterID"] = after.id
        }
        sql += " ORDER BY t.scientific_name, t.id LIMIT :limit"
        let room = query.limit - page.count
        values["limit"] = room + 1
        let unnamed = try db.storedRows(sql, Self.arguments(query.lang, values), rowids: Self.taxaRowIDs, Self.taxon(from:))
        page += unnamed.prefix(room)
        if unnamed.count > room, let last = page.last {
            // The page's last child is unnamed, unless the page was filled by named ones alone.
            let named = room == 0
            next = ChildPosition(commonName: named ? last.preferredCommonName : nil, scientificName: last.scientificName, id: last.id)
        }
        return ChildPage(children: page, next: next)
    }

    /// A child with a common or vernacular name in `:lang` or its primary language `:primary`.
    private static let nameInLanguage = """
        SELECT 1 FROM names n WHERE n.taxon_id = t.id AND (n.lang = :lang OR n.lang = :primary) AND n.name_type IN ('common', 'vernacular')
        """

    /// `selectTaxon` for the children of `query.parentID` that pass its filters, and its arguments.
    private func childFilter(_ query: ChildQuery) -> (sql: String, values: [String: (any DatabaseValueConvertible)?]) {
        var sql = select + " WHERE t.parent_id = :parent"
        var values: [String: (any DatabaseValueConvertible)?] = ["parent": query.parentID]
        if let rank = query.rank {
            sql += " AND t.rank = :rank"
            values["rank"] = rank.rawValue
        }
        if let conservation = query.conservation {
            sql += " AND t.conservation = :conservation"
            values["conservation"] = conservation.rawValue
        }
        return (sql, values)
    }
}

/// The common-name order of one named child: the name folded (case and accents aside), then as
/// written, then the scientific name and the id, so that every two children compare unequal.
private struct CommonKey {
    let folded: String
    let name: String
    let scientificName: String
    let id: Int64

    init(name: String, scientificName: String, id: Int64) {
        self.folded = TextFolding.fold(name)
        self.name = name
        self.scientificName = scientificName
        self.id = id
    }

    /// Whether this key comes after `other`.
    func follows(_ other: CommonKey) -> Bool {
        (folded, name, scientificName, id) > (other.folded, other.name, other.scientificName, other.id)
    }
}
