import Foundation
import GRDB
import STOLProtocol

/// The scientific names of the species (and forms below them) of the engine's bundled database:
/// the organisms its encyclopedia for children chose to describe, a prominence input
/// (`Prominence`) for every other database. Read once from the resource; empty if it cannot be.
enum BundledSpecies {
    static let names: Set<String> = {
        guard let url = try? Engine.embeddedDatabaseURL() else { return [] }
        var configuration = Configuration()
        configuration.readonly = true
        guard let queue = try? DatabaseQueue(path: url.path, configuration: configuration) else { return [] }
        let ranks = Rank.allCases.filter(\.isSpeciesOrBelow).map(\.rawValue)
        return (try? queue.read { db in
            Set(try String.fetchAll(db, sql: "SELECT scientific_name FROM taxa WHERE status = 'accepted' AND rank IN (SELECT value FROM json_each(?))",
                                    arguments: [TaxonomyStore.jsonArray(ranks)]))
        }) ?? []
    }()
}
