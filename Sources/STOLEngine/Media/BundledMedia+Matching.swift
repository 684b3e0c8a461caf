import Foundation
import GRDB

extension BundledMedia {
    /// How a photograph found its taxon in a database.
    public enum MatchKind: String, Sendable {
        /// A taxon has the photo's scientific name.
        case scientificName
        /// A taxon lists the photo's name as a synonym.
        case synonym
        /// A domestic form named as a subspecies (`Canis lupus familiaris`) found as a species of
        /// its genus and last epithet (`Canis familiaris`), by name or synonym. Never the wild
        /// species (`Canis lupus`): a dog is not a picture of a wolf.
        case domesticForm
    }

    /// One photograph placed on a taxon.
    public struct Match: Sendable, Equatable {
        public var photo: Int
        public var taxonID: Int64
        public var kind: MatchKind
    }

    /// Where the photographs go in one database.
    public struct Matches: Sendable {
        /// Photographs by the taxon they illustrate.
        public var byTaxon: [Int64: [Match]] = [:]
        /// Scientific names of the photographs no taxon matched, in manifest order.
        public var unmatched: [String] = []
    }

    /// Matches every photograph to a taxon of `db`, or reports it unmatched: by scientific name,
    /// then synonym; a trinomial (a domestic form) then as genus + last epithet. Names compare
    /// exactly, letter case aside. A species the database lacks is never put on its genus: the
    /// genus's image stands in for every species of it, and a horse is no picture of a zebra.
    public func matches(in db: Database) throws -> Matches {
        var found = Matches()
        for (index, photo) in photos.enumerated() {
            let words = photo.scientificName.split(separator: " ").map(String.init)
            var match: (Int64, MatchKind)?
            if let id = try Self.taxon(named: photo.scientificName, in: db) {
                match = (id, .scientificName)
            } else if let id = try Self.taxon(withSynonym: photo.scientificName, in: db) {
                match = (id, .synonym)
            } else if words.count == 3 {
                let species = "\(words[0]) \(words[2])"
                if let id = try Self.taxon(named: species, in: db) ?? Self.taxon(withSynonym: species, in: db) { match = (id, .domesticForm) }
            }
            if let (id, kind) = match {
                found.byTaxon[id, default: []].append(Match(photo: index, taxonID: id, kind: kind))
            } else {
                found.unmatched.append(photo.scientificName)
            }
        }
        return found
    }

    /// The taxon named `name`: an accepted one first, then the lowest id.
    static func taxon(named name: String, in db: Database) throws -> Int64? {
        let rows = try db.storedRows(
            "SELECT id, scientific_name, rowid FROM taxa WHERE scientific_name = ? COLLATE NOCASE ORDER BY status <> 'accepted', id",
            [name], rowids: [("taxa", 2)]) { (id: try $0.taxonID(0, "taxa.id"), name: try $0.text(1, "taxa.scientific_name")) }
        return rows.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.id
    }

    /// The taxon that lists `name` as a synonym (the lowest id when several do).
    static func taxon(withSynonym name: String, in db: Database) throws -> Int64? {
        let rows = try db.storedRows(
            "SELECT taxon_id, name, rowid FROM names WHERE name = ? COLLATE NOCASE AND name_type = 'synonym' ORDER BY taxon_id",
            [name], rowids: [("names", 2)]) { (id: try $0.taxonID(0, "names.taxon_id"), name: try $0.text(1, "names.name")) }
        return rows.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.id
    }
}
