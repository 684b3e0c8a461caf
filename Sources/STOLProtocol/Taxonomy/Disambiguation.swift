/// How to tell a taxon from others with the same scientific name (NCBI has *Morus* the mulberry
/// and *Morus* the gannet). Present only where a name is shared.
public struct Disambiguation: Codable, Hashable, Sendable {
    /// The ancestor that sets this taxon apart; absent when the lineages do not differ above it
    /// (one namesake hangs below the other), and only the rank tells them apart.
    public var ancestorId: Int64?
    public var ancestorName: String?
    public var ancestorRank: Rank?
    /// The form to show: `Morus (genus in Aves)`.
    public var display: String

    public init(ancestorId: Int64? = nil, ancestorName: String? = nil, ancestorRank: Rank? = nil, display: String) {
        self.ancestorId = ancestorId
        self.ancestorName = ancestorName
        self.ancestorRank = ancestorRank
        self.display = display
    }
}
