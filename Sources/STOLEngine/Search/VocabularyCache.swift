import GRDB
import STOLSupport

/// What typo search keeps of one database's word vocabulary (`WordVocabulary`) between searches:
/// how many words hold each trigram looked up so far, and the short words whole. An open database
/// never changes, so nothing goes stale; it lives as long as its `TaxonomyDatabase`.
final class VocabularyCache: Sendable {
    /// Most trigram counts kept: a query's trigrams come from what users type, so the table is
    /// bounded rather than grown by any text sent.
    static let trigramCapacity = 65_536

    private struct State {
        var trigramCounts: [String: Int] = [:]
        var shortWords: Set<String>?
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

    /// Every vocabulary word of `WordVocabulary.shortestWord` letters or one more (a few thousand
    /// on millions of taxa), read from `db` the first time: the words one edit from a word of
    /// four letters are looked up here rather than spelled out into a full-text query.
    func shortWords(in db: Database) throws -> Set<String> {
        if let words = state.withLock({ $0.shortWords }) { return words }
        let shortest = WordVocabulary.shortestWord
        let padded = try String.fetchAll(db.cachedStatement(sql: "SELECT c0 FROM fts_words_content WHERE id >= ? AND id < ?"),
            arguments: [WordVocabulary.rowid(length: shortest, n: 0), WordVocabulary.rowid(length: shortest + 2, n: 0)])
        let words = Set(padded.map { String($0.dropFirst().dropLast()) })
        state.withLock { $0.shortWords = words }
        return words
    }
}
