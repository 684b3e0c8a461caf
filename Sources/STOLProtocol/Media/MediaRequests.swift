/// `media/import`: verifies and installs a signed `.stolmedia` pack, with progress.
public struct MediaImportRequest: RPCRequest, Hashable {
    public typealias Response = MediaPack
    public static let method = "media/import"

    /// The pack's absolute path.
    public var path: String

    public init(path: String) {
        self.path = path
    }
}

/// `media/cancelImport`: stops the media import in progress.
public struct MediaCancelImportRequest: RPCRequest, Hashable {
    public typealias Response = ImportCancellation
    public static let method = "media/cancelImport"
    public init() {}
}

/// `media/packs`: the bundled photographs and the installed packs.
public struct MediaPacksRequest: RPCRequest, Hashable {
    public typealias Response = MediaPacks
    public static let method = "media/packs"
    public static let ordering = MethodOrdering.reads(OrderedResource.mediaPacks)
    public init() {}
}

/// `media/image`: a taxon's image (or its genus's, said so) in a size, as base64; null when
/// none. With `taxonIds`, one entry per id, to fill a result list in one call.
public struct MediaImageRequest: RPCRequest, Hashable, OneOrManyTaxa {
    public typealias Response = MediaImageResponse
    public static let method = "media/image"
    public static let ordering = MethodOrdering.reads(OrderedResource.mediaPacks)

    /// One taxon; or give `taxonIds`.
    public var taxonId: TaxonID?
    /// Up to 50 taxa.
    public var taxonIds: [TaxonID]?
    /// Nil: the largest image.
    public var size: ImageSize?

    public init() {}

    /// One taxon's image in `size`.
    public init(taxonId: TaxonID, size: ImageSize?) {
        self.taxonId = taxonId
        self.size = size
    }

    /// The images of a list of taxa in `size`.
    public init(taxonIds: [TaxonID], size: ImageSize?) {
        self.taxonIds = taxonIds
        self.size = size
    }
}

/// `media/deletePack`: deletes an installed pack.
public struct MediaDeletePackRequest: RPCRequest, Hashable {
    public typealias Response = MediaPackDeletion
    public static let method = "media/deletePack"
    public static let ordering = MethodOrdering.writes(OrderedResource.mediaPacks)

    public var id: String

    public init(id: String) {
        self.id = id
    }
}

/// `media/packs`' answer.
public struct MediaPacks: Codable, Hashable, Sendable {
    public var packs: [MediaPack]

    public init(packs: [MediaPack]) {
        self.packs = packs
    }
}

/// `media/image`'s answer: one image or null for `taxonId`, `{images: [...]}` for `taxonIds`.
public enum MediaImageResponse: Codable, Hashable, Sendable {
    case one(MediaImage?)
    case list([MediaImageEntry])

    /// The one image, or the images of a list answer in order (nil where a taxon has none).
    public var images: [MediaImage?] {
        switch self {
        case .one(let image): [image]
        case .list(let entries): entries.map(\.image)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .one(let image):
            var container = encoder.singleValueContainer()
            try container.encode(image)
        case .list(let entries):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(entries, forKey: .images)
        }
    }

    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: CodingKeys.self), container.contains(.images) {
            self = .list(try container.decode([MediaImageEntry].self, forKey: .images))
        } else {
            self = .one(try decoder.singleValueContainer().decode(MediaImage?.self))
        }
    }

    enum CodingKeys: String, CodingKey { case images }
}

/// One entry of a list answer: the id asked for and its image, or null.
public struct MediaImageEntry: Codable, Hashable, Sendable {
    public var taxonId: TaxonID
    public var image: MediaImage?

    public init(taxonId: TaxonID, image: MediaImage?) {
        self.taxonId = taxonId
        self.image = image
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(taxonId, forKey: .taxonId)
        try container.encode(image, forKey: .image)  // null, not absent, when there is none
    }

    enum CodingKeys: String, CodingKey { case taxonId, image }
}

/// `media/deletePack`'s answer: `{"deleted": true}`.
public struct MediaPackDeletion: Codable, Hashable, Sendable {
    public var deleted: Bool

    public init(deleted: Bool) {
        self.deleted = deleted
    }
}
