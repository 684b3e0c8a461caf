import STOLJSON

/// `taxon/lineages`' answer: the lineages of many taxa at once, ids only, root first — the bulk
/// form of `taxon/ancestors` for scripts and pipelines.
public struct LineageBatch: Codable, Hashable, Sendable, JSONWritable {
    private let list: any LineageList
    /// `tree` when answered from the in-memory index, `sql` when from the database.
    public let source: String

    /// For each id asked, its ancestors' ids from the root down to its parent (empty for a root).
    public var lineages: [[TaxonID]] { list.lineages }

    public init(lineages: [[TaxonID]], source: String) {
        self.list = lineages
        self.source = source
    }

    /// Lineages that write their own JSON (the engine writes them straight from its tree).
    public init(lineages: some LineageList, source: String) {
        self.list = lineages
        self.source = source
    }

    enum CodingKeys: String, CodingKey { case lineages, source }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(lineages: try container.decode([[TaxonID]].self, forKey: .lineages), source: try container.decode(String.self, forKey: .source))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(lineages, forKey: .lineages)
        try container.encode(source, forKey: .source)
    }

    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            o.member("lineages", AnyLineageList(list: list))
            o.member("source", source)
        }
    }

    public static func == (x: LineageBatch, y: LineageBatch) -> Bool { x.source == y.source && x.lineages == y.lineages }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(lineages)
    }
}

/// Lineages, each root first, that write their own JSON array of arrays of ids.
public protocol LineageList: Sendable, JSONWritable {
    var lineages: [[TaxonID]] { get }
}

extension Array: LineageList where Element == [TaxonID] {
    public var lineages: [[TaxonID]] { self }
}

/// Opens the existential for `JSONObject.member`.
private struct AnyLineageList: JSONWritable {
    let list: any LineageList
    func writeJSON(into out: inout [UInt8]) { list.writeJSON(into: &out) }
    func encode(to encoder: any Encoder) throws { try list.encode(to: encoder) }
}
