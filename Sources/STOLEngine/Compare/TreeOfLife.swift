import GRDB
import STOLProtocol

/// The root of all life: the clade `compare/taxa` names when two taxa are in different trees of
/// the database (a lion and *E. coli*, under the domains Eukaryota and Bacteria). It is no taxon
/// of any database: a pseudo-taxon with id 0 (never a taxon id, which start at 1), no parent and
/// no rank, whose children are the database's roots.
enum TreeOfLife {
    /// The pseudo-taxon's id: 0, which no taxon has.
    static let id = Taxon.rootOfLifeID
    /// Its scientific name, the usual one for all living things together (Catalogue of Life's root).
    static let scientificName = "Biota"

    /// Its common name in each language the bundled dataset has names in, by primary subtag.
    static let commonNames = ["en": "Life", "de": "Leben", "es": "Vida", "fr": "Vie"]

    /// The pseudo-taxon, its common name in `lang` (its primary subtag), else English, as
    /// `preferredCommonName` falls back; `roots` is its child count.
    static func taxon(lang: String, roots: Int) -> Taxon {
        let primary = TaxonomyStore.primaryLanguage(lang)
        let nameLang = commonNames[primary] == nil ? "en" : primary
        return Taxon(
            id: id, parentId: nil, rank: nil, scientificName: scientificName, author: nil, year: nil, status: .accepted,
            conservationStatus: nil, preferredCommonName: commonNames[nameLang], preferredCommonNameLang: nameLang, childCount: roots)
    }

    /// The number of taxa without a parent in `db` (one seek of the parent index).
    static func rootCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM taxa WHERE parent_id IS NULL")) ?? 0
    }
}
