import Foundation
import STOLRPC

/// Checks shared by every method's params; each failure names its field.
enum Params {
    /// Taxon ids are positive JSON integers below 2^53 (`taxonIDs`; decoding checks them first,
    /// through `BoundedParams`).
    static func taxonID(_ value: Int64, field: String = "id") throws -> Int64 {
        guard taxonIDs.contains(value) else { throw RPCError.invalidParams(field: field, IntegerBounds.outOfRange(taxonIDs)) }
        return value
    }

    /// A BCP-47 language tag such as `en`, `es` or `pt-BR`, in its canonical form (`BCP47.canonical`:
    /// `EN`, `de_DE` and `de-de` are taken as `en` and `de-DE`); English when absent. Answers fall
    /// back from a regional tag to its language (`de-DE` → `de`) where they pick names.
    static func language(_ value: String?, field: String = "lang") throws -> String {
        guard let value else { return "en" }
        guard let tag = BCP47.canonical(value) else {
            throw RPCError.invalidParams(field: field, "must be a language tag such as en, es, pt-BR or de_DE")
        }
        return tag
    }

    static func limit(_ value: Int?, default fallback: Int, max maximum: Int, field: String = "limit") throws -> Int {
        guard let value else { return fallback }
        guard (1...maximum).contains(value) else { throw RPCError.invalidParams(field: field, IntegerBounds.outOfRange(1...Int64(maximum))) }
        return value
    }

    static func rank(_ value: String?, field: String = "rank") throws -> Rank? {
        guard let value else { return nil }
        guard let rank = Rank(rawValue: value) else {
            throw RPCError.invalidParams(field: field, "must be one of \(Rank.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return rank
    }

    /// A file the engine is asked to read: an absolute path. The engine's working directory is
    /// not the app's and it expands no `~`, so a relative path is refused rather than guessed.
    static func absoluteFile(_ value: String, field: String = "path") throws -> URL {
        guard !value.isEmpty else { throw RPCError.invalidParams(field: field, "must be a file path") }
        guard value.hasPrefix("/") else {
            let hint = value.hasPrefix("~") ? "the engine does not expand ~" : "resolve it against your own working directory"
            throw RPCError.invalidParams(field: field, "must be an absolute path (\(hint))")
        }
        return URL(fileURLWithPath: value)
    }

    /// The order of `taxon/children`: `scientific` (the default) or `common`.
    static func childOrder(_ value: String?, field: String = "sort") throws -> TaxonomyStore.ChildOrder {
        guard let value else { return .scientific }
        guard let order = TaxonomyStore.ChildOrder(rawValue: value) else {
            throw RPCError.invalidParams(field: field, "must be one of \(TaxonomyStore.ChildOrder.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return order
    }

    static func conservation(_ value: String?, field: String = "conservation") throws -> ConservationStatus? {
        guard let value else { return nil }
        guard let status = ConservationStatus(rawValue: value) else {
            throw RPCError.invalidParams(field: field, "must be one of \(ConservationStatus.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return status
    }
}

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

    init(parent: Int64, order: TaxonomyStore.ChildOrder, lang: String, position: TaxonomyStore.ChildPosition) {
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
    static func decode(_ text: String?, parent: Int64, order: TaxonomyStore.ChildOrder, lang: String, field: String = "cursor") throws -> PageCursor? {
        guard let text else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let cursor = try? JSONDecoder().decode(PageCursor.self, from: data) else {
            throw RPCError.invalidParams(field: field, "is not a cursor returned by this method")
        }
        guard cursor.parent == parent else {
            throw RPCError.invalidParams(field: field, "belongs to the children of taxon \(cursor.parent), not of \(parent)")
        }
        let made = cursor.sort ?? TaxonomyStore.ChildOrder.scientific.rawValue
        guard made == order.rawValue else {
            throw RPCError.invalidParams(field: field, "was made for sort \(made), not \(order.rawValue)")
        }
        if order == .common, cursor.lang != lang {
            throw RPCError.invalidParams(field: field, "was made for lang \(cursor.lang ?? "?"), not \(lang)")
        }
        return cursor
    }
}
