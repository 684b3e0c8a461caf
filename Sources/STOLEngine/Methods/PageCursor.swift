import Foundation
import STOLProtocol
import STOLRPC

/// An opaque paging cursor: the sort key of the last item returned, bound to the taxon whose
/// children it pages.
struct PageCursor: Codable, Equatable {
    /// The taxon whose children are paged; another taxon's cursor is refused.
    var parent: Int64
    var name: String
    var id: Int64

    /// Sorted keys: JSONEncoder's member order otherwise varies from call to call, so the same
    /// page would come with different cursor text.
    var encoded: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(self)) ?? Data()
        return data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The cursor in `text`, which must have come from paging `parent`'s children.
    static func decode(_ text: String?, parent: Int64, field: String = "cursor") throws -> PageCursor? {
        guard let text else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let cursor = try? JSONDecoder().decode(PageCursor.self, from: data) else {
            throw RPCError.invalidParams(field: field, "is not a cursor returned by this method")
        }
        guard cursor.parent == parent else {
            throw RPCError.invalidParams(field: field, "belongs to the children of taxon \(cursor.parent), not of \(parent)")
        }
        return cursor
    }
}
