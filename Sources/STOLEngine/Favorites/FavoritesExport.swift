import Foundation
import GRDB
import STOLProtocol

/// Resolving, sorting and exporting favourites.
enum FavoritesListing {
    /// Whether the database has a taxon with `id`.
    static func isAvailable(_ id: Int64, in database: TaxonomyDatabase) async throws -> Bool {
        try await database.read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM taxa WHERE id = ?)", arguments: [id]) ?? false }
    }

    /// `rows` with their display fields from `database`, in `sort` order.
    static func entries(_ rows: [FavoritesStore.Row], in database: TaxonomyDatabase, lang: String, sort: FavoritesSort) async throws -> [FavoriteEntry] {
        var taxa: [Int64: (taxon: Taxon, disambiguation: Disambiguation?)] = [:]
        let ids = rows.map(\.taxonID)
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = Array(ids[start..<min(start + 500, ids.count)])
            let found = try await database.read { db in
                var values: [String: (any DatabaseValueConvertible)?] = [:]
                for (i, id) in chunk.enumerated() { values["i\(i)"] = id }
                let list = chunk.indices.map { ":i\($0)" }.joined(separator: ",")
                return try db.storedRows(TaxonomyStore.selectTaxon(in: database) + " WHERE t.id IN (\(list))", TaxonomyStore.arguments(lang, values),
                                         rowids: TaxonomyStore.taxaRowIDs, TaxonomyStore.taxon(from:))
                    .map { taxon in
                        (taxon, try Homonyms.disambiguation(id: taxon.id, scientificName: taxon.scientificName, rank: taxon.rank, in: db))
                    }
            }
            for entry in found { taxa[entry.0.id] = entry }
        }
        let entries = rows.map { row in
            let found = taxa[row.taxonID], taxon = found?.taxon
            return FavoriteEntry(
                taxonId: row.taxonID, createdAt: row.createdAt, available: taxon != nil,
                scientificName: taxon?.scientificName, commonName: taxon?.preferredCommonName, commonNameLang: taxon?.preferredCommonNameLang,
                rank: taxon?.rank, conservationStatus: taxon?.conservationStatus, disambiguation: found?.disambiguation)
        }
        return sorted(entries, by: sort)
    }

    /// `entries` in `sort` order. Unavailable entries have no names, so the name orders put them
    /// last, by taxon id.
    static func sorted(_ entries: [FavoriteEntry], by sort: FavoritesSort) -> [FavoriteEntry] {
        switch sort {
        case .recent:
            return entries.sorted { ($0.createdAt, $1.taxonId) > ($1.createdAt, $0.taxonId) }
        case .scientific, .common:
            let keyed = entries.map { entry -> (key: [String], entry: FavoriteEntry) in
                guard entry.available, let scientific = entry.scientificName else { return (["2"], entry) }
                let scientificKey = [TextFolding.fold(scientific), scientific]
                guard sort == .common else { return (["0"] + scientificKey, entry) }
                guard let common = entry.commonName else { return (["1"] + scientificKey, entry) }
                return (["0", TextFolding.fold(common), common] + scientificKey, entry)
            }
            return keyed.sorted { a, b in
                a.key != b.key ? a.key.lexicographicallyPrecedes(b.key) : a.entry.taxonId < b.entry.taxonId
            }.map(\.entry)
        }
    }
}

/// The plain-text list the app shares.
enum FavoritesExport {
    static let title = "My Favourite Species — Species: Tree of Life"

    /// The title in each language the bundled dataset has names in, by primary subtag; the app's
    /// name stays as it is. Other languages get the English title.
    static let titles = [
        "en": title,
        "de": "Meine Lieblingsarten — Species: Tree of Life",
        "es": "Mis especies favoritas — Species: Tree of Life",
        "fr": "Mes espèces favorites — Species: Tree of Life",
    ]

    /// The title in `lang` (`pt-BR` looks for `pt`), English when there is none.
    static func title(in lang: String) -> String {
        titles[titleLanguage(for: lang)] ?? title
    }

    /// The language `title(in:)` answers in: `lang`'s primary subtag when there is a title in it,
    /// else `en`.
    static func titleLanguage(for lang: String) -> String {
        let primary = TaxonomyStore.primaryLanguage(lang).lowercased()
        return titles[primary] == nil ? "en" : primary
    }

    /// The title in `lang`, a blank line, then `1. Panthera leo (Lion)` for each available entry
    /// (names only); every line ends with a newline. Unavailable entries have no name and are skipped.
    static func text(_ entries: [FavoriteEntry], lang: String = "en") -> String {
        var lines = [title(in: lang), ""]
        var number = 0
        for entry in entries where entry.available {
            guard let scientific = entry.scientificName else { continue }
            number += 1
            lines.append(entry.commonName.map { "\(number). \(scientific) (\($0))" } ?? "\(number). \(scientific)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
