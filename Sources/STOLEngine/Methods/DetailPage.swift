import STOLProtocol
import STOLRPC

/// `taxon/detail` with `include`: the page's other calls (its image, whether it is a favourite,
/// its closest relatives) answered with the detail, so a species page takes one call. Nothing is
/// added, read or waited for unless asked: the default detail is unchanged.
enum DetailPage {
    /// The detail of `p.id`, with what `p.include` asks for, read side by side.
    static func answer(_ p: TaxonDetailRequest, engine: Engine) async throws -> TaxonPage {
        let id = try Params.taxonID(p.id)
        let lang = try Params.language(p.lang)
        let parts = Set(p.include ?? [])
        if p.imageSize != nil, !parts.contains(.image) { throw RPCError.invalidParams(field: "imageSize", "needs \"image\" in include") }
        let size = p.imageSize ?? .thumbnail
        let store = await engine.store()
        // The default detail: one read, no child tasks.
        guard !parts.isEmpty else { return TaxonPage(detail: try await store.detail(id, lang: lang)) }
        async let detail = store.detail(id, lang: lang)
        async let image = parts.contains(.image) ? MediaMethods.image(of: id, size: size, engine: engine) : nil
        async let favorite = parts.contains(.favorite) ? engine.favorites.contains(id) : nil
        var page = TaxonPage(detail: try await detail, included: parts)
        page.image = try await image
        page.isFavorite = try await favorite
        if parts.contains(.relatives), page.detail.taxon.rank == .species {
            page.relatives = try await engine.compare.relatives(of: id, lang: lang)
        }
        return page
    }
}
