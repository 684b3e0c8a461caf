import STOLJSON

/// `taxon/detail`'s answer: the detail, and after its own members the parts `include` asked for.
/// Parts not asked for are left out; asked for and absent (no image, not a species), they are null.
@dynamicMemberLookup
public struct TaxonPage: Codable, Hashable, Sendable, JSONWritable {
    public var detail: TaxonDetail
    /// The parts asked for.
    public var included: Set<TaxonDetailPart>
    public var image: MediaImage?
    public var isFavorite: Bool?
    public var relatives: Relatives?

    public init(detail: TaxonDetail, included: Set<TaxonDetailPart> = [], image: MediaImage? = nil, isFavorite: Bool? = nil, relatives: Relatives? = nil) {
        self.detail = detail
        self.included = included
        self.image = image
        self.isFavorite = isFavorite
        self.relatives = relatives
    }

    /// The detail's members, read through the page (`page.taxon`, `page.lineage`).
    public subscript<Value>(dynamicMember keyPath: KeyPath<TaxonDetail, Value>) -> Value {
        detail[keyPath: keyPath]
    }

    public func writeJSON(into out: inout [UInt8]) {
        guard !included.isEmpty else { return detail.writeJSON(into: &out) }
        var own: [UInt8] = []
        detail.writeJSON(into: &own)
        own.removeLast()  // the detail's closing brace: its members go on
        out.append(contentsOf: own)
        func add(_ key: String, _ value: some Encodable) {
            out.append(UInt8(ascii: ","))
            JSONWriter.writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
            out.append(contentsOf: (try? JSONEncoding.encode(value)) ?? Array("null".utf8))
        }
        if included.contains(.image) { add("image", image) }
        if included.contains(.favorite) { add("isFavorite", isFavorite) }
        if included.contains(.relatives) { add("relatives", relatives) }
        out.append(UInt8(ascii: "}"))
    }

    public func encode(to encoder: any Encoder) throws {
        var bytes: [UInt8] = []
        writeJSON(into: &bytes)
        try RawJSON(bytes: bytes).encode(to: encoder)
    }

    enum CodingKeys: String, CodingKey { case image, isFavorite, relatives }

    public init(from decoder: any Decoder) throws {
        detail = try TaxonDetail(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        included = []
        if container.contains(.image) { included.insert(.image) }
        if container.contains(.isFavorite) { included.insert(.favorite) }
        if container.contains(.relatives) { included.insert(.relatives) }
        image = try container.decodeIfPresent(MediaImage.self, forKey: .image)
        isFavorite = try container.decodeIfPresent(Bool.self, forKey: .isFavorite)
        relatives = try container.decodeIfPresent(Relatives.self, forKey: .relatives)
    }
}
