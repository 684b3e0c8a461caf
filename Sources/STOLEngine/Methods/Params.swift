import Foundation
import STOLProtocol
import STOLRPC

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
}
