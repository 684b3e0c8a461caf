import STOLRPC
import STOLJSON

/// `taxon/detail` with `include`: the page's other calls (its image, whether it is a favourite,
/// its closest relatives) answered with the detail, so a species page takes one call. Nothing is
/// added, read or waited for unless asked: the default detail is unchanged.
enum DetailPage {
    /// What `include` may ask for.
    enum Part: String, CaseIterable, Sendable {
        /// `image`: what `media/image` answers for the taxon in `imageSize` (default `thumbnail`), or null.
        case image
        /// `isFavorite`: whether the taxon is a favourite.
        case favorite
        /// `relatives`: what `compare/relatives` answers with its defaults, or null for a taxon
        /// that is not a species.
        case relatives
    }

    /// `taxon/detail`'s params: `id`, `lang`, and what to `include`.
    struct Request: Codable, Sendable {
        var id: Int64
        var lang: String?
        var include: [String]?
        var imageSize: String?

        init(id: Int64, lang: String? = nil, include: [String]? = nil, imageSize: String? = nil) {
            self.id = id
            self.lang = lang
            self.include = include
            self.imageSize = imageSize
        }

        /// The parts asked for, and the image size, each checked.
        func validated() throws -> (parts: Set<Part>, imageSize: ImageSize) {
            var parts: Set<Part> = []
            for (i, name) in (include ?? []).enumerated() {
                guard let part = Part(rawValue: name) else {
                    let names = Part.allCases.map(\.rawValue)
                    throw RPCError.invalidParams(field: "include.\(i)", "must be one of \(names.joined(separator: ", "))", ["allowed": .array(names.map { .string($0) })])
                }
                parts.insert(part)
            }
            let size = try MediaMethods.size(imageSize, field: "imageSize") ?? .thumbnail
            if imageSize != nil, !parts.contains(.image) { throw RPCError.invalidParams(field: "imageSize", "needs \"image\" in include") }
            return (parts, size)
        }
    }

    /// The ordering of one request: a detail that includes the favourite state sees earlier
    /// favourite changes, one that includes the image sees earlier pack imports and deletions.
    static func ordering(for params: JSONValue?) -> MethodOrdering {
        guard let include = params?["include"]?.arrayValue, !include.isEmpty else { return .concurrent }
        var reads: Set<String> = []
        if include.contains(.string(Part.favorite.rawValue)) { reads.insert(FavoritesMethods.resource) }
        if include.contains(.string(Part.image.rawValue)) { reads.insert(MediaMethods.resource) }
        return MethodOrdering(reads: reads)
    }

    /// The detail with the included parts after its own members. Parts not asked for are left
    /// out; asked for and absent, they are null.
    struct Answer: JSONWritable, Sendable {
        var detail: TaxonDetail
        var parts: Set<Part> = []
        var image: MediaMethods.ImageResult?
        var isFavorite: Bool?
        var relatives: RelativesResult?

        func writeJSON(into out: inout [UInt8]) {
            guard !parts.isEmpty else { return detail.writeJSON(into: &out) }
            var members: [(key: String, value: RawJSON)] = []
            func add(_ key: String, _ value: some Encodable) {
                members.append((key, RawJSON(bytes: (try? JSONEncoding.encode(value)) ?? Array("null".utf8))))
            }
            if parts.contains(.image) { add("image", image) }
            if parts.contains(.favorite) { add("isFavorite", isFavorite) }
            if parts.contains(.relatives) { add("relatives", relatives) }
            var own: [UInt8] = []
            detail.writeJSON(into: &own)
            own.removeLast()  // the detail's closing brace: its members go on
            out.append(contentsOf: own)
            for member in members {
                out.append(UInt8(ascii: ","))
                JSONWriter.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.writeJSON(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }

        func encode(to encoder: any Encoder) throws {
            var bytes: [UInt8] = []
            writeJSON(into: &bytes)
            try RawJSON(bytes: bytes).encode(to: encoder)
        }
    }

    /// The detail of `p.id`, with what `p.include` asks for, read side by side.
    static func answer(_ p: Request, engine: Engine) async throws -> Answer {
        let id = try Params.taxonID(p.id)
        let lang = try Params.language(p.lang)
        let (parts, size) = try p.validated()
        let store = await engine.store()
        // The default detail: one read, no child tasks.
        guard !parts.isEmpty else { return Answer(detail: try await store.detail(id, lang: lang)) }
        async let detail = store.detail(id, lang: lang)
        async let image = parts.contains(.image) ? MediaMethods.image(of: id, size: size, engine: engine) : nil
        async let favorite = parts.contains(.favorite) ? engine.favorites.contains(id) : nil
        var answer = Answer(detail: try await detail, parts: parts)
        answer.image = try await image
        answer.isFavorite = try await favorite
        if parts.contains(.relatives), answer.detail.taxon.rank == .species {
            answer.relatives = try await engine.compare.relatives(of: id, lang: lang)
        }
        return answer
    }
}
