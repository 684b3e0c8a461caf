import GRDB
import STOLProtocol
import Testing

@testable import STOLEngine

/// The typo stage's close words (`WordVocabulary.closeWords`, through any trigram or through the
/// pigeonhole pieces) are every vocabulary word within the edit limit, checked against all words
/// of the embedded database's vocabulary; and the words held in memory are the stored ones.
@Suite struct WordVocabularyTests {
    static func vocabulary(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT c0 FROM fts_words_content ORDER BY id").map { String($0.dropFirst().dropLast()) }
    }

    @Test func wordsInMemoryAreTheStoredOnesByRowid() async throws {
        let database = try TaxonomyDatabase(url: try Engine.embeddedDatabaseURL(), source: .bundled)
        try await database.read { db in
            let words = try VocabularyWords(db)
            let stored = try Row.fetchAll(db, sql: "SELECT id, c0 FROM fts_words_content ORDER BY id")
            #expect(stored.count > 500)
            for row in stored {
                let padded: String = row[1]
                #expect(words.word(rowid: row[0]).map { String(decoding: $0, as: UTF8.self) } == String(padded.dropFirst().dropLast()))
            }
            #expect(words.word(rowid: WordVocabulary.rowid(length: 5, n: 0)) == nil)
            #expect(words.word(rowid: WordVocabulary.rowid(length: 5, n: 1 << 30)) == nil)
            #expect(words.word(rowid: WordVocabulary.rowid(length: 900, n: 1)) == nil)
        }
    }

    /// `fill` numbers each length's words as `ORDER BY term` would and leaves out what `length`
    /// and `GLOB` would: the stored rows equal the SQL formulation's, over every term of the
    /// embedded index (other scripts included), on a fresh copy of the table.
    @Test func fillEqualsTheWindowQuery() async throws {
        struct Word: Equatable { var id: Int64; var padded: String }
        let queue = try DatabaseQueue()
        try await queue.write { db in
            try db.execute(sql: "ATTACH DATABASE ? AS embedded", arguments: [try Engine.embeddedDatabaseURL().path])
            try db.execute(sql: "CREATE VIRTUAL TABLE temp.terms USING fts5vocab(embedded, 'fts_taxa', 'row')")
            let expected = try Row.fetchAll(db, sql: """
                SELECT (length(term) << 32) | row_number() OVER (PARTITION BY length(term) ORDER BY term) AS id, ' ' || term || ' ' AS padded
                FROM temp.terms WHERE length(term) >= \(WordVocabulary.shortestWord) AND term NOT GLOB '*[0-9]*' ORDER BY id
                """).map { Word(id: $0[0], padded: $0[1]) }
            #expect(expected.count > 5_000)
            #expect(expected.contains { !$0.padded.utf8.allSatisfy { $0 < 0x80 } })
            try db.execute(sql: "CREATE VIRTUAL TABLE fts_words USING fts5(padded, tokenize = 'trigram', detail = 'none', columnsize = 0)")
            try WordVocabulary.fill(db, source: "embedded")
            let stored = try Row.fetchAll(db, sql: "SELECT id, c0 FROM fts_words_content ORDER BY id").map { Word(id: $0[0], padded: $0[1]) }
            #expect(stored.count == expected.count)
            #expect(stored == expected)
            // The temporary vocabulary table is gone; the trigram index answers.
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM temp.sqlite_master WHERE name = 'stol_taxa_terms'") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM fts_words WHERE fts_words MATCH 'ulp'") ?? 0 >= 1)
        }
    }

    /// `mayHold` (which spares the inflected tier and four-letter typos forms that no name has) is
    /// true for every term of the full-text index, and false for words of four letters or more
    /// that are none, in any script; shorter words and words with digits are always kept.
    @Test func mayHoldEveryIndexedTermAndNoOther() async throws {
        let queue = try DatabaseQueue()
        try await queue.write { db in
            try db.execute(sql: "ATTACH DATABASE ? AS embedded", arguments: [try Engine.embeddedDatabaseURL().path])
            let words = try VocabularyWords(db)
            try db.execute(sql: "CREATE VIRTUAL TABLE temp.terms USING fts5vocab(embedded, 'fts_taxa', 'row')")
            let terms = Set(try String.fetchAll(db, sql: "SELECT term FROM temp.terms"))
            #expect(terms.count > 5_000)
            var missed: [String] = []
            for term in terms where !words.mayHold(term) { missed.append(term) }
            #expect(missed.isEmpty, "\(missed.prefix(10))")
            var absent = 0, held: [String] = []
            var otherScripts = 0
            for term in terms where term.unicodeScalars.count >= 4 && !term.contains(where: { $0.isASCII && $0.isNumber }) {
                if !term.utf8.allSatisfy({ $0 < 0x80 }) { otherScripts += 1 }
                for other in [term + "q", String(term.dropLast()) + "qq", "q" + term] where !terms.contains(other) {
                    if words.mayHold(other) { held.append(other) }
                    absent += 1
                }
            }
            #expect(absent > 1_000)
            #expect(otherScripts > 10)
            #expect(held.isEmpty, "\(held.prefix(10))")
            let kept = ["fox", "qqq", "qq9qq", "bär", ""].filter { words.mayHold($0) }
            #expect(kept.count == 5)
            #expect(!words.mayHold("bärqq"))
        }
    }

    /// Words of seven letters or more have 3·d + 1 padded trigrams and d + 1 pieces of three, so
    /// both ways of finding candidates are complete: nothing within reach is missed.
    @Test func closeWordsAreEveryWordWithinTheLimit() async throws {
        let database = try TaxonomyDatabase(url: try Engine.embeddedDatabaseURL(), source: .bundled)
        let cache = VocabularyCache()
        try await database.read { db in
            let all = try Self.vocabulary(db)
            var random = UInt64(42)
            func next(_ n: Int) -> Int {
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int((random >> 33) % UInt64(n))
            }
            let letters = Array("abcdefghijklmnopqrstuvwxyz")
            var queries: Set<String> = []
            for word in all.filter({ $0.count >= 8 && $0.allSatisfy(\.isASCII) }).prefix(150) {
                var typed = Array(word)
                for _ in 0..<(1 + next(2)) {
                    let i = next(typed.count)
                    switch next(3) {
                    case 0: typed[i] = letters[next(letters.count)]
                    case 1: typed.insert(letters[next(letters.count)], at: i)
                    default: typed.remove(at: i)
                    }
                }
                queries.insert(String(typed))
            }
            #expect(queries.count > 100)
            var found = 0
            for query in queries where query.count >= 7 {
                let limit = SearchService.allowedDistance(query)
                let q = Array(query.unicodeScalars)
                let expected = Set(all.filter { word in
                    word.unicodeScalars.count >= WordVocabulary.shortestWord
                        && EditDistance.distance(q, Array(word.unicodeScalars), limit: limit) != nil
                })
                let close = try WordVocabulary.closeWords(to: query, limit: limit, in: db, cache: cache)
                #expect(Set(close.map(\.word)) == expected, "\(query)")
                for (word, distance) in close {
                    #expect(EditDistance.distance(q, Array(word.unicodeScalars), limit: limit) == distance)
                }
                found += close.count
            }
            #expect(found > 100, "most typed words are within reach of the word they came from")
        }
    }

    @Test func piecesCutThePaddedWordIntoRarePieces() {
        let padded = Array(" elefant ".unicodeScalars)
        let frequency = [" el": 500, "ele": 400, "lef": 3, "efa": 30, "fan": 900, "ant": 2000, "nt ": 1500]
        let pieces = WordVocabulary.pieces(of: WordVocabulary.trigrams(of: padded), count: 3, frequency: frequency)
        #expect(pieces?.trigrams.count == 3)
        // Every trigram of a piece lies within the word, and the pieces do not overlap.
        #expect(pieces?.trigrams.flatMap { $0 }.allSatisfy { frequency[$0] != nil } == true)
        #expect(WordVocabulary.pieces(of: WordVocabulary.trigrams(of: Array(" lion ".unicodeScalars)), count: 3, frequency: [:]) == nil, "too short to cut in three")
        let long = Array((" " + String(repeating: "ab", count: 100) + " ").unicodeScalars)
        #expect(WordVocabulary.pieces(of: WordVocabulary.trigrams(of: long), count: 3, frequency: [:]) == nil, "a typed word of 200 letters is not cut every way")
        // The estimate is the sum of each piece's rarest trigram count.
        #expect(pieces?.estimate == pieces?.trigrams.map { $0.compactMap { frequency[$0] }.min() ?? 0 }.reduce(0, +))
    }
}
