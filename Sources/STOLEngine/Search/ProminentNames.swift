import GRDB
import STOLProtocol
import STOLSupport

/// The names of one database's best-known taxa (`Prominence`), read once and kept, so that
/// autocomplete finds them for a prefix of a letter or two, which starts too many names for the
/// folded-name index's first rows to reach them. An open database never changes, so nothing
/// goes stale; it lives as long as its `TaxonomyDatabase`.
final class ProminentNames: Sendable {
    /// Most taxa whose names are kept, best known first.
    static let taxa = 2_000

    private let kept = Locked<WordStartIndex?>(nil)

    /// The kept names with a word starting with `folded` (a folded prefix), each with where that
    /// word starts, in the order the names were read; read from `db` the first time.
    func names(withWordStarting folded: String, in db: Database) throws -> [(row: Autocomplete.NameRow, found: Range<String.Index>)] {
        try index(in: db).names(withWordStarting: folded)
    }

    private func index(in db: Database) throws -> WordStartIndex {
        if let index = kept.withLock({ $0 }) { return index }
        let names = try db.storedRows("""
            SELECT \(CandidateName.columns(ranking: true)), t.conservation
            FROM (SELECT taxon_id, prominence FROM taxon_prominence WHERE prominence > 0 ORDER BY prominence DESC, taxon_id LIMIT \(Self.taxa)) AS p
            JOIN search_names s ON s.taxon_id = p.taxon_id JOIN taxa t ON t.id = s.taxon_id LEFT JOIN name_heads h ON h.name_id = s.id
            """, rowids: CandidateName.rowids) { row in
            Autocomplete.NameRow(name: try CandidateName(row),
                                 conservation: try row.memberOrNull(ConservationStatus.self, Int32(CandidateName.columnCount), "taxa.conservation")?.rawValue)
        }
        let index = WordStartIndex(names)
        kept.withLock { $0 = index }
        return index
    }
}

/// Every word start of a list of names, as the folded text from there to the name's end, sorted
/// by its bytes: the names with a word starting with a prefix are one range of it, found by
/// binary search instead of a scan of every name on every keystroke.
struct WordStartIndex: Sendable {
    private struct Start: Sendable {
        /// The folded name's UTF-8 bytes from the word start on.
        var text: [UInt8]
        /// The name's position in `names`.
        var name: Int32
        /// Where the word starts in the folded name, in UTF-8 bytes.
        var offset: Int32
    }

    private let names: [Autocomplete.NameRow]
    private let starts: [Start]

    init(_ names: [Autocomplete.NameRow]) {
        self.names = names
        var starts: [Start] = []
        for (i, row) in names.enumerated() {
            let folded = row.name.folded
            for offset in Self.wordStarts(of: folded) {
                starts.append(Start(text: Array(folded.utf8.dropFirst(offset)), name: Int32(i), offset: Int32(offset)))
            }
        }
        self.starts = starts.sorted { $0.text.lexicographicallyPrecedes($1.text) }
    }

    /// The UTF-8 offsets at which a word of `folded` starts: its start and every position after
    /// a character that is no letter or digit (as `Autocomplete.wordStart` reads words).
    static func wordStarts(of folded: String) -> [Int] {
        var offsets: [Int] = []
        var offset = 0
        var previousIsWord = false
        for character in folded {
            let isWord = character.isLetter || character.isNumber
            if isWord, !previousIsWord { offsets.append(offset) }
            previousIsWord = isWord
            offset += character.utf8.count
        }
        return offsets
    }

    /// The names with a word starting with `prefix`, each once with its first such word, in
    /// the order of `names`.
    func names(withWordStarting prefix: String) -> [(row: Autocomplete.NameRow, found: Range<String.Index>)] {
        let key = Array(prefix.utf8)
        guard !key.isEmpty else { return [] }
        var low = 0, high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid].text.lexicographicallyPrecedes(key) { low = mid + 1 } else { high = mid }
        }
        var first: [Int32: Int32] = [:]
        var i = low
        while i < starts.count, starts[i].text.starts(with: key) {
            let start = starts[i]
            if let seen = first[start.name], seen <= start.offset {} else { first[start.name] = start.offset }
            i += 1
        }
        return first.sorted { $0.key < $1.key }.map { name, offset in
            let row = names[Int(name)]
            let folded = row.name.folded
            let lower = folded.utf8.index(folded.startIndex, offsetBy: Int(offset))
            return (row, lower..<folded.utf8.index(lower, offsetBy: key.count))
        }
    }
}
