import GRDB
import STOLSupport

/// What typo search keeps of one database's word vocabulary (`WordVocabulary`) between searches:
/// how many words hold each trigram looked up so far, and the words themselves
/// (`VocabularyWords`), read in the background once the first search that reaches word-internal
/// matches or typos has wanted them (that search reads the few it needs from the database). An
/// open database never changes, so nothing goes stale; it lives as long as its `TaxonomyDatabase`.
final class VocabularyCache: Sendable {
    /// Most trigram counts kept: a query's trigrams come from what users type, so the table is
    /// bounded rather than grown by any text sent.
    static let trigramCapacity = 65_536

    private struct State {
        var trigramCounts: [String: Int] = [:]
        var words: VocabularyWords?
        /// A search read words from the database because they were not in memory yet.
        var wanted = false
        var loading = false
    }

    private let state = Locked(State())

    /// How many vocabulary words hold `trigram` (padded as stored), counted by `count` the first
    /// time and kept.
    func wordsHolding(_ trigram: String, count: () throws -> Int) rethrows -> Int {
        if let known = state.withLock({ $0.trigramCounts[trigram] }) { return known }
        let counted = try count()
        state.withLock { s in
            if s.trigramCounts.count < Self.trigramCapacity { s.trigramCounts[trigram] = counted }
        }
        return counted
    }

    /// Every vocabulary word, read from `db` the first time.
    func words(in db: Database) throws -> VocabularyWords {
        if let words = state.withLock({ $0.words }) { return words }
        let words = try VocabularyWords(db)
        state.withLock { $0.words = words }
        return words
    }

    /// The vocabulary words if an earlier search has read them; nil otherwise (nothing is read).
    var wordsIfRead: VocabularyWords? {
        state.withLock { $0.words }
    }

    /// Notes that a search read words from the database for want of them in memory.
    func wanted() {
        state.withLock { $0.wanted = true }
    }

    /// Whether the words were wanted and are neither loaded nor being loaded; if so, the caller
    /// loads them (`TaxonomyDatabase.loadVocabularyIfWanted`), and no one else will.
    func claimLoad() -> Bool {
        state.withLock { s in
            guard s.wanted, s.words == nil, !s.loading else { return false }
            s.loading = true
            return true
        }
    }
}
