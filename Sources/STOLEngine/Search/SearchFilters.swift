import GRDB
import STOLProtocol

/// Restrictions on which taxa a search or listing returns; every one is optional.
public struct SearchFilters: Sendable, Equatable {
    public var rank: Rank?
    /// Any of these statuses; nil for no restriction.
    public var conservation: Set<ConservationStatus>?
    /// Only this taxon and its descendants.
    public var within: Int64?
    /// Words that must each start a word of one of the taxon's `habitat` traits (`forest`, `coral reef`).
    public var habitat: [String] = []

    public init() {}

    /// The statuses the documented set `threatened` stands for (IUCN's threatened categories).
    public static let threatened: Set<ConservationStatus> = [.VU, .EN, .CR]

    /// Whether no filter is set.
    public var isEmpty: Bool { rank == nil && conservation == nil && within == nil && habitat.isEmpty }

    /// A stable description of the filters, part of what a cursor is bound to.
    var fingerprint: String {
        [
            rank?.rawValue ?? "", (conservation ?? []).map(\.rawValue).sorted().joined(separator: ","),
            within.map(String.init) ?? "", habitat.joined(separator: " "),
        ].joined(separator: "|")
    }

    /// SQL conditions on `t` (the taxa table) starting with " AND ", and their arguments.
    /// `within` is resolved to its Euler-tour range by the caller (`range`).
    func sql(range: ClosedRange<Int64>?) -> (sql: String, arguments: [String: (any DatabaseValueConvertible)?]) {
        var sql = ""
        var arguments: [String: (any DatabaseValueConvertible)?] = [:]
        if let rank {
            sql += " AND t.rank = :rank"
            arguments["rank"] = rank.rawValue
        }
        if let conservation {
            let codes = conservation.map(\.rawValue).sorted()
            sql += " AND t.conservation IN (\(codes.indices.map { ":c\($0)" }.joined(separator: ",")))"
            for (i, code) in codes.enumerated() { arguments["c\(i)"] = code }
        }
        if let range {
            sql += " AND EXISTS (SELECT 1 FROM first_occurrence fo WHERE fo.taxon_id = t.id AND fo.seq BETWEEN :lo AND :hi)"
            arguments["lo"] = range.lowerBound
            arguments["hi"] = range.upperBound
        }
        for (i, word) in habitat.enumerated() {
            // Words are letters and digits only (SearchQuery.tokenize), so they hold no LIKE wildcard.
            sql += " AND EXISTS (SELECT 1 FROM traits h WHERE h.taxon_id = t.id AND h.trait_key = 'habitat' AND (' ' || h.trait_value) LIKE :h\(i))"
            arguments["h\(i)"] = "% " + word + "%"
        }
        return (sql, arguments)
    }

    /// The Euler-tour range of `within`'s subtree: from its first visit to the last index before
    /// the tour climbs above it (or, for a root, reaches the next root). Nil when the taxon is unknown.
    static func subtreeRange(_ db: Database, of taxon: Int64) throws -> ClosedRange<Int64>? {
        func integer(_ sql: String, _ arguments: StatementArguments, _ column: String) throws -> Int64? {
            try db.cachedStatement(sql: sql).firstStoredRow(arguments) { try $0.integerOrNull(0, column) } ?? nil
        }
        guard let first = try integer("SELECT seq FROM first_occurrence WHERE taxon_id = ?", [taxon], "first_occurrence.seq"),
            let depth = try integer("SELECT depth FROM euler_tour WHERE seq = ?", [first], "euler_tour.depth")
        else { return nil }
        let end = try integer("SELECT min(seq) FROM euler_tour WHERE seq > :first AND (depth < :depth OR (depth = :depth AND taxon_id != :id))",
                              ["first": first, "depth": depth, "id": taxon], "euler_tour.seq")
        let last = try end.map { $0 - 1 } ?? (integer("SELECT max(seq) FROM euler_tour", [], "euler_tour.seq") ?? first)
        guard last >= first else { throw DataFault("euler_tour: the subtree of taxa rowid \(taxon) ends (seq \(last)) before it starts (seq \(first))") }
        return first...last
    }
}
