import STOLProtocol
import Testing

@testable import STOLEngine

@Suite struct WordStartIndexTests {
    static func row(_ id: Int64, _ folded: String) -> Autocomplete.NameRow {
        Autocomplete.NameRow(
            name: CandidateName(taxonID: id, name: folded, folded: folded, matchType: "common", lang: "en", scientificName: "X", rank: nil, status: .accepted),
            conservation: nil)
    }

    /// The index finds what a scan with `Autocomplete.wordStart` finds, at the same place, in
    /// the same order, for every prefix of every word of the names (and some that start none).
    @Test func findsWhatAScanFinds() {
        let folded = [
            "lion", "australian sea lion", "sea lion", "mountain lion", "lionfish", "o'brien's lion", "snow leopard", "leopard seal",
            "lion lion", "grand-duc d'europe", "pez leon", "loewe", "ours brun", "ocelot", "a", "123 go", "sea-lion", "leon",
            "ñandu comun", "pajaro carpintero", "βουβάλι", "north american beaver",
        ]
        let rows = folded.enumerated().map { Self.row(Int64($0.offset + 1), $0.element) }
        let index = WordStartIndex(rows)
        var prefixes: Set<String> = ["zz", "lions", "sea l", "n", "é", "-", "lion l", "x"]
        for name in folded {
            for word in name.split(whereSeparator: { !($0.isLetter || $0.isNumber) }) {
                for length in 1...word.count { prefixes.insert(String(word.prefix(length))) }
            }
        }
        for prefix in prefixes {
            let scanned = rows.compactMap { row in Autocomplete.wordStart(of: prefix, in: row.name.folded).map { (row.name.taxonID, row.name.folded[$0]) } }
            let indexed = index.names(withWordStarting: prefix).map { ($0.row.name.taxonID, $0.row.name.folded[$0.found]) }
            #expect(scanned.map(\.0) == indexed.map(\.0), "taxa for \(prefix)")
            #expect(scanned.map(\.1) == indexed.map(\.1), "found text for \(prefix)")
        }
        #expect(index.names(withWordStarting: "lion").map(\.row.name.folded) == ["lion", "australian sea lion", "sea lion", "mountain lion", "lionfish", "o'brien's lion", "lion lion", "sea-lion"])
        #expect(index.names(withWordStarting: "").isEmpty)
    }

    @Test func wordStartsFollowLettersAndDigits() {
        #expect(WordStartIndex.wordStarts(of: "sea lion") == [0, 4])
        #expect(WordStartIndex.wordStarts(of: "grand-duc d'europe") == [0, 6, 10, 12])
        #expect(WordStartIndex.wordStarts(of: " ñandu") == [1])
        #expect(WordStartIndex.wordStarts(of: "") == [])
    }
}
