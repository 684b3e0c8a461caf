import Foundation
import GRDB

/// The vocabulary of distinct folded words (`fts_words`, part of the `searchIndex` extension): the
/// words a mistyped query word may have meant, and the words that hold a query word inside
/// (compounds), found among distinct words rather than every name, so the cost follows the number
/// of distinct words.
///
/// Each word of four letters or more (no digits) of `fts_taxa` is stored once, padded with a space at
/// both ends, with rowid `length << 32 | n`: a band of lengths is a band of rowids, which FTS5 seeks
/// to in each posting list. By the q-gram lemma a word within d edits of the query word misses at
/// most 3·d of its padded trigrams, so any 3·d + 1 of them find every such word; the rarest are
/// taken. Or, from seven letters, the padded word is cut into d + 1 pieces (`pieces`): d edits
/// leave one piece whole, so a close word holds every trigram of some piece. A transposition (one
/// edit) can change 4 trigrams: from five letters (d = 2) one still leaves a shared trigram, but a
/// word of four letters has too few (`bule` and `blue` share none), so its one-edit forms are
/// looked up in the vocabulary instead (`oneEditWords`), shorter ones included
/// (`raxt` → `rat`). Full-text queries give rowids; the words' text comes from memory
/// (`VocabularyCache`), or, until the vocabulary is loaded, from `fts_words_content`.
enum WordVocabulary {
    /// Shortest word compared for typos, in letters: shorter words have too many near neighbours.
    static let shortestWord = 4

    /// The padded words matching an FTS5 expression (`:m`), for autocomplete, which reads few and
    /// does not load the vocabulary. The text is joined from the table's content
    /// (`fts_words_content`, its FTS5 shadow table) rather than read through FTS5, which looks
    /// each row up with a statement of its own: 2.4× faster.
    static let matchingWordsSQL = "SELECT c.c0 FROM fts_words f JOIN fts_words_content c ON c.id = f.rowid WHERE fts_words MATCH :m"

    /// The rowid of the `n`th word (from 1) of `length` letters.
    static func rowid(length: Int, n: Int) -> Int64 { Int64(length) << 32 | Int64(n) }

    /// Fills `fts_words` (for `SchemaExtensions`) from `source`'s `fts_taxa`.
    ///
    /// FTS5 lists its terms in byte order, the order of `ORDER BY term`, so each length's words
    /// are numbered as they come, and digits and short words are left out here rather than by a
    /// window query and `GLOB`, which took half the fill (NCBI: 2.2 of 4.4 s). Rows go in rowid
    /// order: FTS5 writes its pending terms out as a new segment whenever a rowid is not above the
    /// last, so words in plain alphabetical order (lengths alternating) made hundreds of thousands
    /// of tiny segments to merge (NCBI: 8.9 s of CPU against 3.2 s in rowid order).
    static func fill(_ db: Database, source: String) throws {
        try db.execute(sql: "CREATE VIRTUAL TABLE temp.stol_taxa_terms USING fts5vocab(\(source), 'fts_taxa', 'row')")
        var byLength: [[String]] = []
        do {
            let terms = try String.fetchCursor(db, sql: "SELECT term FROM temp.stol_taxa_terms")
            while let term = try terms.next() {
                guard !term.utf8.contains(where: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { continue }
                let length = term.unicodeScalars.count
                guard length >= shortestWord else { continue }
                if length >= byLength.count { byLength += Array(repeating: [], count: length + 1 - byLength.count) }
                byLength[length].append(term)
            }
        } catch {
            try? db.execute(sql: "DROP TABLE temp.stol_taxa_terms")
            throw error
        }
        try db.execute(sql: "DROP TABLE temp.stol_taxa_terms")
        let insert = try BulkStatement(db, "INSERT INTO fts_words(rowid, padded) VALUES (?, ?)")
        for (length, words) in byLength.enumerated() {
            for (i, word) in words.enumerated() {
                try insert.insert(.int(rowid(length: length, n: i + 1)), .text(" " + word + " "))
            }
        }
        try db.execute(sql: "INSERT INTO fts_words(fts_words) VALUES ('optimize')")
    }

    /// The vocabulary words within `limit` edits of `word` (folded, at least `shortestWord`
    /// letters), the word itself included when present, with their distances. Trigram counts
    /// come from `cache` once looked up.
    static func closeWords(to word: String, limit: Int, in db: Database, cache: VocabularyCache) throws -> [(word: String, distance: Int)] {
        let q = Array(word.unicodeScalars)
        guard q.count >= shortestWord else { return [] }
        let byPosition = trigrams(of: Array((" " + word + " ").unicodeScalars))
        var trigrams: [String] = []
        for gram in byPosition where !trigrams.contains(gram) { trigrams.append(gram) }
        // One equality lookup per trigram: fts5vocab answers `term = ?` from its index, but scans for IN.
        let vocabulary = try db.cachedStatement(sql: "SELECT doc FROM fts_word_trigrams WHERE term = ?")
        var frequency: [String: Int] = [:]
        for gram in trigrams {
            frequency[gram] = try cache.wordsHolding(gram) { try Int.fetchOne(vocabulary, arguments: [gram]) ?? 0 }
        }
        // A trigram no word holds finds nothing; it still counts as one of the 3·d + 1.
        let chosen = trigrams.sorted { (frequency[$0] ?? 0, $0) < (frequency[$1] ?? 0, $1) }.prefix(3 * limit + 1)
        let present = chosen.filter { (frequency[$0] ?? 0) > 0 }
        guard !present.isEmpty else { return [] }
        var expression = present.map(quoted).joined(separator: " OR ")
        // Or, when it promises well under half the candidates, the pigeonhole form: cut the padded
        // word into d + 1 pieces of three letters or more; d edits leave one piece whole, so a
        // close word holds every trigram of some piece (`elefant`: 5,212 → 1,274 words on Open Tree).
        let estimate = present.reduce(0) { $0 + (frequency[$1] ?? 0) }
        if let pieces = pieces(of: byPosition, count: limit + 1, frequency: frequency), pieces.estimate * 5 < estimate * 2 {
            expression = pieces.trigrams.map { "(" + $0.map(quoted).joined(separator: " AND ") + ")" }.joined(separator: " OR ")
        }
        let shortest = max(shortestWord, q.count - limit), longest = q.count + limit
        // Each edit changes the letter counts by at most 2 (L1 norm), so a word whose counts differ
        // from the query's by more than 2·limit is rejected before the edit distance. ASCII words
        // are compared as bytes.
        let query = Array(word.utf8)
        let ascii = query.allSatisfy { $0 < 0x80 }
        var counts = [Int](repeating: 0, count: 128)
        var out: [(word: String, distance: Int)] = []
        try candidates(matching: expression, lengths: shortest...longest, in: db, cache: cache) { candidate in
            if ascii, candidate.allSatisfy({ $0 < 0x80 }) {
                for byte in candidate { counts[Int(byte)] += 1 }
                for byte in query { counts[Int(byte)] -= 1 }
                var difference = 0
                for byte in candidate {
                    difference += abs(counts[Int(byte)])
                    counts[Int(byte)] = 0
                }
                for byte in query {
                    difference += abs(counts[Int(byte)])
                    counts[Int(byte)] = 0
                }
                if difference > 2 * limit { return }
                if let d = EditDistance.distance(query, Array(candidate), limit: limit) {
                    out.append((String(decoding: candidate, as: UTF8.self), d))
                }
                return
            }
            let text = String(decoding: candidate, as: UTF8.self)
            if let d = EditDistance.distance(q, Array(text.unicodeScalars), limit: limit) {
                out.append((text, d))
            }
        }
        return out
    }

    /// Calls `body` with the text (UTF-8, unpadded) of every vocabulary word matching the FTS5
    /// expression `expression`, of the letter counts `lengths` when given: read from memory once
    /// an earlier search has loaded the vocabulary (`VocabularyCache`), and until then from
    /// `fts_words_content`, asking for the vocabulary to be loaded in the background, so that the
    /// first search does not wait for the whole of it.
    static func candidates(matching expression: String, lengths: ClosedRange<Int>? = nil, in db: Database, cache: VocabularyCache, _ body: (ArraySlice<UInt8>) throws -> Void) throws {
        var range = ""
        var arguments: StatementArguments = ["m": expression]
        if let lengths {
            range = " AND f.rowid >= :first AND f.rowid < :end"
            arguments += ["first": rowid(length: lengths.lowerBound, n: 0), "end": rowid(length: lengths.upperBound + 1, n: 0)]
        }
        if let words = cache.wordsIfRead {
            // Rowids only: each candidate's text comes from the words held in memory.
            let rows = try Int64.fetchCursor(db.cachedStatement(sql: "SELECT f.rowid FROM fts_words f WHERE fts_words MATCH :m\(range)"), arguments: arguments)
            while let id = try rows.next() {
                if let candidate = words.word(rowid: id) { try body(candidate) }
            }
            return
        }
        cache.wanted()
        let rows = try String.fetchCursor(db.cachedStatement(sql: matchingWordsSQL + range), arguments: arguments)
        while let padded = try rows.next() {
            let bytes = Array(padded.utf8)
            guard bytes.count >= 2 else { continue }
            try body(bytes[1..<(bytes.count - 1)])
        }
    }

    /// Every trigram of `scalars` by position, repeats kept: the `i`th is `scalars[i..<i + 3]`.
    static func trigrams(of scalars: [Unicode.Scalar]) -> [String] {
        guard scalars.count >= 3 else { return [] }
        return (0...(scalars.count - 3)).map { i in
            var gram = String.UnicodeScalarView()
            gram.append(contentsOf: scalars[i..<i + 3])
            return String(gram)
        }
    }

    /// `term` as an FTS5 string: quoted, its quotes doubled.
    static func quoted(_ term: String) -> String { "\"\(term.replacingOccurrences(of: "\"", with: "\"\""))\"" }

    /// The cut of a padded word, given as its trigrams by position (`trigrams(of:)`), into
    /// `count` pieces of three letters or more whose trigrams find the fewest words, as each
    /// piece's trigrams with the estimate (per piece, its rarest trigram's count, summed); nil when
    /// the word is too short to cut so, or longer than `longestCut`.
    static func pieces(of grams: [String], count: Int, frequency: [String: Int]) -> (trigrams: [[String]], estimate: Int)? {
        let length = grams.count + 2
        guard count >= 1, length >= 3 * count, length <= longestCut else { return nil }
        let counts = grams.map { frequency[$0] ?? 0 }
        /// The rarest trigram's count of the piece `range` of the padded word.
        func rarest(_ range: Range<Int>) -> Int { counts[range.lowerBound...(range.upperBound - 3)].min() ?? 0 }
        var best: (ends: [Int], estimate: Int)?
        func cut(from start: Int, left: Int, ends: [Int], estimate: Int) {
            if left == 1 {
                let total = estimate + rarest(start..<length)
                if best == nil || total < best!.estimate { best = (ends + [length], total) }
                return
            }
            var end = start + 3
            while length - end >= 3 * (left - 1) {
                cut(from: end, left: left - 1, ends: ends + [end], estimate: estimate + rarest(start..<end))
                end += 1
            }
        }
        cut(from: 0, left: count, ends: [], estimate: 0)
        guard let best else { return nil }
        var pieces: [[String]] = []
        var start = 0
        for end in best.ends {
            pieces.append(Array(grams[start...(end - 3)]))
            start = end
        }
        return (pieces, best.estimate)
    }

    /// Longest padded word cut into pieces (`pieces` tries every cut).
    static let longestCut = 64

    /// Vocabulary words that hold one of `parts` (folded, three letters or more) inside or at their
    /// start (a part of three letters: at their end, `NameMatcher.holdsInside`), at most `cap` of
    /// them (`capped` when more exist). Candidates hold every trigram of a part (of three
    /// letters: with the padding after it), their text from `cache`; each is confirmed.
    static func wordsContaining(_ parts: [String], cap: Int, in db: Database, cache: VocabularyCache) throws -> (words: [String], capped: Bool) {
        var out: [String] = []
        var seen: Set<String> = []
        struct Full: Error {}
        for part in parts {
            let atEnd = part.count == 3
            var grams: [String] = []
            for gram in trigrams(of: Array((atEnd ? part + " " : part).unicodeScalars)) where !grams.contains(gram) { grams.append(gram) }
            guard !grams.isEmpty else { continue }
            do {
                try candidates(matching: grams.map(quoted).joined(separator: " AND "), in: db, cache: cache) { bytes in
                    let word = String(decoding: bytes, as: UTF8.self)
                    guard NameMatcher.holdsInside(word, part), seen.insert(word).inserted else { return }
                    if out.count == cap { throw Full() }
                    out.append(word)
                }
            } catch is Full {
                return (out, true)
            }
        }
        return (out, false)
    }

    /// The words one edit from `word` (of `shortestWord` letters) that a full-text query can find:
    /// those the vocabulary may hold (`VocabularyWords.mayHold`: its words, and any with a digit,
    /// which it does not keep), plus, when `shorter`, the forms of one letter less (nor those;
    /// `raxt` → `rat`).
    static func oneEditWords(of word: String, shorter: Bool, in db: Database, cache: VocabularyCache) throws -> [String] {
        let vocabulary = cache.wordsIfRead
        if vocabulary == nil { cache.wanted() }
        let term = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM fts_taxa WHERE fts_taxa MATCH ?)")
        return try oneEditForms(of: word).filter { form in
            if form.count < shortestWord { return shorter }
            if let vocabulary { return vocabulary.mayHold(form) }
            return try Bool.fetchOne(term, arguments: [quoted(form)]) ?? false
        }.sorted()
    }

    /// Every string one edit (deletion, transposition, substitution or insertion of a letter a–z or
    /// of the word's own) from `word`, the word itself excluded.
    static func oneEditForms(of word: String) -> Set<String> {
        let letters = Array(word)
        var alphabet = Set("abcdefghijklmnopqrstuvwxyz")
        alphabet.formUnion(letters)
        var out: Set<String> = []
        for i in letters.indices {
            var deleted = letters
            deleted.remove(at: i)
            out.insert(String(deleted))
            if i + 1 < letters.count {
                var swapped = letters
                swapped.swapAt(i, i + 1)
                out.insert(String(swapped))
            }
            for c in alphabet where c != letters[i] {
                var replaced = letters
                replaced[i] = c
                out.insert(String(replaced))
            }
        }
        for i in 0...letters.count {
            for c in alphabet {
                var inserted = letters
                inserted.insert(c, at: i)
                out.insert(String(inserted))
            }
        }
        out.remove(word)
        return out.filter { !$0.isEmpty }
    }
}
