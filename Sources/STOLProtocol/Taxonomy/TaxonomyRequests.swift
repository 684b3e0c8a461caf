import STOLJSON

/// `taxon/get`: one taxon, its preferred common name in `lang`.
public struct TaxonGetRequest: RPCRequest, Hashable, InlineDecodable {
    public typealias Response = Taxon
    public static let method = "taxon/get"

    public var id: TaxonID
    /// A BCP-47 tag; English when absent.
    public var lang: String?

    public init(id: TaxonID, lang: String? = nil) {
        self.id = id
        self.lang = lang
    }

    /// `{"id": <integer>}` with an optional string `lang`; nil for any other shape.
    public init?(inline params: JSONValue?) {
        guard case .number(let text)? = params?["id"], let id = Int64(text) else { return nil }
        switch params?["lang"] {
        case nil, .null?: self.init(id: id)
        case .string(let lang)?: self.init(id: id, lang: lang)
        default: return nil
        }
    }
}

/// `taxon/roots`: the taxa without a parent.
public struct TaxonRootsRequest: RPCRequest, Hashable {
    public typealias Response = TaxonRoots
    public static let method = "taxon/roots"

    public var lang: String?

    public init(lang: String? = nil) {
        self.lang = lang
    }
}

/// `taxon/children`: one page of a taxon's children, by scientific name or by common name.
public struct TaxonChildrenRequest: RPCRequest, Hashable {
    public typealias Response = TaxonChildren
    public static let method = "taxon/children"

    public var id: TaxonID
    /// 1…1000; 100 when absent.
    public var limit: Int?
    /// `nextCursor` of the previous page of the same taxon's children.
    public var cursor: String?
    /// Only children of this rank.
    public var rank: Rank?
    /// Only children with this conservation status.
    public var conservation: ConservationStatus?
    public var lang: String?
    /// `scientific` (the default) or `common`.
    public var sort: ChildOrder?

    public init(
        id: TaxonID, limit: Int? = nil, cursor: String? = nil, rank: Rank? = nil, conservation: ConservationStatus? = nil, lang: String? = nil,
        sort: ChildOrder? = nil
    ) {
        self.id = id
        self.limit = limit
        self.cursor = cursor
        self.rank = rank
        self.conservation = conservation
        self.lang = lang
        self.sort = sort
    }
}

/// How `taxon/children` orders a level.
public enum ChildOrder: String, Hashable, Sendable, CaseIterable, EnumeratedParam {
    /// By scientific name, then id.
    case scientific
    /// By the preferred common name in the asked language, case and accents aside (then the
    /// name as written, the scientific name and the id); children without a name in that
    /// language follow, by scientific name and id.
    case common
}

/// `taxon/ancestors`: a taxon's lineage, root first.
public struct TaxonAncestorsRequest: RPCRequest, Hashable {
    public typealias Response = TaxonAncestors
    public static let method = "taxon/ancestors"

    public var id: TaxonID
    public var lang: String?

    public init(id: TaxonID, lang: String? = nil) {
        self.id = id
        self.lang = lang
    }
}

/// `taxon/lineages`: the lineages of up to 100,000 taxa, ids only, root first.
public struct TaxonLineagesRequest: RPCRequest, Hashable {
    public typealias Response = LineageBatch
    public static let method = "taxon/lineages"

    public var ids: [TaxonID]

    public init(ids: [TaxonID]) {
        self.ids = ids
    }
}

/// `taxon/names`: a taxon's names, every language unless `lang` is given.
public struct TaxonNamesRequest: RPCRequest, Hashable {
    public typealias Response = TaxonNames
    public static let method = "taxon/names"

    public var id: TaxonID
    public var lang: String?

    public init(id: TaxonID, lang: String? = nil) {
        self.id = id
        self.lang = lang
    }
}

/// `taxon/traits`: a taxon's traits, keys and values in `lang` where the engine can translate them.
public struct TaxonTraitsRequest: RPCRequest, Hashable {
    public typealias Response = TaxonTraits
    public static let method = "taxon/traits"

    public var id: TaxonID
    public var lang: String?

    public init(id: TaxonID, lang: String? = nil) {
        self.id = id
        self.lang = lang
    }
}

/// `taxon/references`: a taxon's references.
public struct TaxonReferencesRequest: RPCRequest, Hashable {
    public typealias Response = TaxonReferences
    public static let method = "taxon/references"

    public var id: TaxonID

    public init(id: TaxonID) {
        self.id = id
    }
}

/// `taxon/detail`: a taxon with its lineage, names, traits and references in one answer; with
/// `include`, its image, favourite state and closest relatives too, so a page takes one call.
public struct TaxonDetailRequest: RPCRequest, Hashable {
    public typealias Response = TaxonPage
    public static let method = "taxon/detail"

    public var id: TaxonID
    public var lang: String?
    /// The page's other parts to answer with the detail.
    public var include: [TaxonDetailPart]?
    /// The included image's size (`thumbnail` when absent); needs `image` in `include`.
    public var imageSize: ImageSize?

    public init(id: TaxonID, lang: String? = nil, include: [TaxonDetailPart]? = nil, imageSize: ImageSize? = nil) {
        self.id = id
        self.lang = lang
        self.include = include
        self.imageSize = imageSize
    }

    /// A detail that includes the favourite state sees earlier favourite changes; one that
    /// includes the image sees earlier pack imports and deletions. Otherwise it waits for nothing.
    public static func ordering(for params: JSONValue?) -> MethodOrdering {
        guard let include = params?["include"]?.arrayValue, !include.isEmpty else { return .concurrent }
        var reads: Set<String> = []
        if include.contains(.string(TaxonDetailPart.favorite.rawValue)) { reads.insert(OrderedResource.favorites) }
        if include.contains(.string(TaxonDetailPart.image.rawValue)) { reads.insert(OrderedResource.mediaPacks) }
        return MethodOrdering(reads: reads)
    }
}

/// What `taxon/detail`'s `include` may ask for.
public enum TaxonDetailPart: String, Hashable, Sendable, CaseIterable, EnumeratedParam {
    /// `image`: what `media/image` answers for the taxon in `imageSize`, or null.
    case image
    /// `isFavorite`: whether the taxon is a favourite.
    case favorite
    /// `relatives`: what `compare/relatives` answers with its defaults, or null for a taxon
    /// that is not a species.
    case relatives

    public static var listsAllowed: Bool { true }
}

/// `taxon/roots`' answer.
public struct TaxonRoots: Codable, Hashable, Sendable, JSONWritable {
    public var roots: [Taxon]
    public init(roots: [Taxon]) { self.roots = roots }
    public func writeJSON(into out: inout [UInt8]) { JSONObject.write(into: &out) { $0.member("roots", roots) } }
}

/// `taxon/children`' answer: one page.
public struct TaxonChildren: Codable, Hashable, Sendable, JSONWritable {
    public var children: [Taxon]
    /// Pass back as `cursor` for the next page; absent on the last.
    public var nextCursor: String?

    public init(children: [Taxon], nextCursor: String? = nil) {
        self.children = children
        self.nextCursor = nextCursor
    }

    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            o.member("children", children)
            o.member("nextCursor", ifPresent: nextCursor)
        }
    }
}

/// `taxon/ancestors`' answer, root first.
public struct TaxonAncestors: Codable, Hashable, Sendable, JSONWritable {
    public var ancestors: [Taxon]
    public init(ancestors: [Taxon]) { self.ancestors = ancestors }
    public func writeJSON(into out: inout [UInt8]) { JSONObject.write(into: &out) { $0.member("ancestors", ancestors) } }
}

/// `taxon/names`' answer.
public struct TaxonNames: Codable, Hashable, Sendable, JSONWritable {
    public var names: [TaxonName]
    public init(names: [TaxonName]) { self.names = names }
    public func writeJSON(into out: inout [UInt8]) { JSONObject.write(into: &out) { $0.member("names", names) } }
}

/// `taxon/traits`' answer.
public struct TaxonTraits: Codable, Hashable, Sendable, JSONWritable {
    public var traits: [Trait]
    public init(traits: [Trait]) { self.traits = traits }
    public func writeJSON(into out: inout [UInt8]) { JSONObject.write(into: &out) { $0.member("traits", traits) } }
}

/// `taxon/references`' answer.
public struct TaxonReferences: Codable, Hashable, Sendable, JSONWritable {
    public var references: [Reference]
    public init(references: [Reference]) { self.references = references }
    public func writeJSON(into out: inout [UInt8]) { JSONObject.write(into: &out) { $0.member("references", references) } }
}
