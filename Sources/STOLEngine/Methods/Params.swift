import Foundation
import STOLRPC
import STOLJSON

/// Checks shared by every method's params; each failure names its field.
enum Params {
    /// Taxon ids are positive JSON integers below 2^53.
    static func taxonID(_ value: Int64, field: String = "id") throws -> Int64 {
        guard value > 0, value < (1 << 53) else { throw RPCError.invalidParams(field: field, "must be a positive integer") }
        return value
    }

    /// A BCP-47 language tag such as `en`, `es` or `pt-BR`; English when absent.
    static func language(_ value: String?, field: String = "lang") throws -> String {
        guard let value else { return "en" }
        guard BCP47.isLanguageTag(value) else { throw RPCError.invalidParams(field: field, "must be a language tag such as en, es or pt-BR") }
        return value
    }

    static func limit(_ value: Int?, default fallback: Int, max maximum: Int, field: String = "limit") throws -> Int {
        guard let value else { return fallback }
        guard (1...maximum).contains(value) else { throw RPCError.invalidParams(field: field, "must be between 1 and \(maximum)") }
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

    static func conservation(_ value: String?, field: String = "conservation") throws -> ConservationStatus? {
        guard let value else { return nil }
        guard let status = ConservationStatus(rawValue: value) else {
            throw RPCError.invalidParams(field: field, "must be one of \(ConservationStatus.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return status
    }
}

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
