import Foundation
import STOLProtocol
import STOLRPC

/// An opaque paging cursor of `taxon/children`: the sort key of the last child returned, bound to
/// the taxon whose children it pages, and to the order (and, by common name, the language) it
/// was made for. A cursor of the scientific order holds only `id`, `name` and `parent`, as those of
/// engines before the common-name order did, so theirs keep working.
struct PageCursor: Codable, Equatable {
    /// The taxon whose children are paged; another taxon's cursor is refused.
    var parent: Int64
    var name: String
    var id: Int64
    /// `common` for the common-name order; absent for the scientific one.
    var sort: String?
    /// The language of the common-name order.
    var lang: String?
    /// The last child's common name in `lang`; absent once the page is past the named children.
    var common: String?

    init(parent: Int64, order: ChildOrder, lang: String, position: TaxonomyStore.ChildPosition) {
        self.parent = parent
        self.name = position.scientificName
        self.id = position.id
        if order == .common {
            self.sort = order.rawValue
            self.lang = lang
            self.common = position.commonName
        }
    }

    /// Where the next page starts.
    var position: TaxonomyStore.ChildPosition {
        .init(commonName: common, scientificName: name, id: id)
    }

    /// Sorted keys: JSONEncoder's member order otherwise varies from call to call, so the same
    /// page would come with different cursor text.
    var encoded: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(self)) ?? Data()
        return data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The cursor in `text`, which must have come from paging `parent`'s children in `order` (and
    /// `lang`, for the common-name order).
    static func decode(_ text: String?, parent: Int64, order: ChildOrder, lang: String, field: String = "cursor") throws -> PageCursor? {
        guard let text else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let cursor = try? JSONDecoder().decode(PageCursor.self, from: data) else {
            throw RPCError.invalidParams(field: field, "is not a cursor returned by this method")
        }
        guard cursor.parent == parent else {
            throw RPCError.invalidParams(field: field, "belongs to the children of taxon \(cursor.parent), not of \(parent)")
        }
        let made = cursor.sort ?? ChildOrder.scientific.rawValue
        guard made == order.rawValue else {
            throw RPCError.invalidParams(field: field, "was made for sort \(made), not \(order.rawValue)")
        }
        if order == .common, cursor.lang != lang {
            throw RPCError.invalidParams(field: field, "was made for lang \(cursor.lang ?? "?"), not \(lang)")
        }
        return cursor
    }
}
