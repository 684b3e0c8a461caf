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
        guard let first = try Int64.fetchOne(db, sql: "SELECT seq FROM first_occurrence WHERE taxon_id = ?", arguments: [taxon]),
            let depth = try Int64.fetchOne(db, sql: "SELECT depth FROM euler_tour WHERE seq = ?", arguments: [first])
        else { return nil }
        let end = try Int64.fetchOne(
            db, sql: "SELECT min(seq) FROM euler_tour WHERE seq > :first AND (depth < :depth OR (depth = :depth AND taxon_id != :id))",
            arguments: ["first": first, "depth": depth, "id": taxon])
        let last = try end.map { $0 - 1 } ?? (Int64.fetchOne(db, sql: "SELECT max(seq) FROM euler_tour") ?? first)
        return first...last
    }
}
