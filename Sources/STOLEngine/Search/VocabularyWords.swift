import GRDB

/// Every word of a database's vocabulary (`fts_words`), held in memory as UTF-8 by rowid, so that
/// typo and word-internal search read a candidate's text without a lookup in `fts_words_content`
/// per candidate (an 8-letter word at 2 edits has about 20,000 candidates on Open Tree). About 9 MB for Open
/// Tree's 623,240 words: the text, stripped of its padding, and an offset per word.
struct VocabularyWords: Sendable {
    private var bytes: [UInt8] = []
    /// Where each word starts in `bytes`, in rowid order, plus the end of the last.
    private var offsets: [Int32] = [0]
    /// Per word length (`rowid >> 32`), the index in `offsets` of its first word (`n` = 1).
    private var firstOfLength: [Int] = []
    /// Per word length, how many words.
    private var countOfLength: [Int] = []

    /// Reads the whole vocabulary of `db` (once per database; ~0.2 s on Open Tree).
    init(_ db: Database) throws {
        try db.makeStatement(sql: "SELECT id, c0 FROM fts_words_content ORDER BY id").forEachStoredRow(rowids: [("fts_words_content", 0)]) { row in
            let rowid = try row.integer(0, "fts_words_content.id")
            let length = Int(rowid >> 32)
            guard length >= 0, length < 1 << 16 else { return }
            if length >= firstOfLength.count {
                firstOfLength += [Int](repeating: offsets.count - 1, count: length + 1 - firstOfLength.count)
                countOfLength += [Int](repeating: 0, count: length + 1 - countOfLength.count)
            }
            if countOfLength[length] == 0 { firstOfLength[length] = offsets.count - 1 }
            countOfLength[length] += 1
            let padded = try row.textOrNull(1, "fts_words_content.c0") ?? ""
            bytes.append(contentsOf: padded.utf8.dropFirst().dropLast())
            offsets.append(Int32(bytes.count))
        }
    }

    /// The word with `rowid` (`WordVocabulary.rowid(length:n:)`), if there is one.
    func word(rowid: Int64) -> ArraySlice<UInt8>? {
        let length = Int(rowid >> 32), n = Int(rowid & 0xFFFF_FFFF)
        guard length >= 0, length < countOfLength.count, n >= 1, n <= countOfLength[length] else { return nil }
        let index = firstOfLength[length] + n - 1
        return bytes[Int(offsets[index])..<Int(offsets[index + 1])]
    }

    /// Whether `word` may be a term of `fts_taxa`: false only for a word of
    /// `WordVocabulary.shortestWord` letters or more, without ASCII digits, that the vocabulary
    /// lacks (shorter words and words with digits are not in it, so they may be). Words are stored
    /// as FTS5 wrote its terms, by length in letters then in byte order. Not a test for folded
    /// words of names: `TextFolding` writes `ß` as `ss`, FTS5 keeps it.
    func mayHold(_ word: String) -> Bool {
        let length = word.unicodeScalars.count, utf8 = word.utf8
        guard length >= WordVocabulary.shortestWord, !utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return true }
        guard length < countOfLength.count else { return false }
        let end = firstOfLength[length] + countOfLength[length]
        var low = firstOfLength[length], high = end
        while low < high {
            let mid = (low + high) / 2
            if bytes[Int(offsets[mid])..<Int(offsets[mid + 1])].lexicographicallyPrecedes(utf8) { low = mid + 1 } else { high = mid }
        }
        return low < end && bytes[Int(offsets[low])..<Int(offsets[low + 1])].elementsEqual(utf8)
    }

}
