import STOLProtocol
import STOLSupport

/// The taxa of one database read most recently, by id and language, as `taxon/get` answers them
/// and search results show them.
///
/// A GUI asks for the same taxa again and again (a lineage on every screen, a list scrolled back
/// and forth, the results of `red f`, `red fo`, `red fox`), and an open database never changes,
/// so an entry never goes stale: it lives as long
/// as its `TaxonomyDatabase`. Bounded: past `capacity` the oldest entry makes room (first in,
/// first out).
final class TaxonCache: Sendable {
    /// Most taxa kept (a few hundred bytes each).
    static let capacity = 8192

    private struct Key: Hashable {
        var id: Int64
        var lang: String
    }

    private struct Entries {
        var byKey: [Key: Taxon] = [:]
        /// Keys in the order they came, as a ring: `next` is the oldest once full.
        var order: [Key] = []
        var next = 0
    }

    private let entries = Locked(Entries())

    /// The taxon `id` in `lang`, when read before.
    func taxon(_ id: Int64, lang: String) -> Taxon? {
        entries.withLock { $0.byKey[Key(id: id, lang: lang)] }
    }

    /// Keeps `taxon` as read in `lang`.
    func keep(_ taxon: Taxon, lang: String) {
        let key = Key(id: taxon.id, lang: lang)
        entries.withLock { e in
            guard e.byKey.updateValue(taxon, forKey: key) == nil else { return }
            if e.order.count < Self.capacity {
                e.order.append(key)
            } else {
                e.byKey[e.order[e.next]] = nil
                e.order[e.next] = key
                e.next = (e.next + 1) % Self.capacity
            }
        }
    }
}
