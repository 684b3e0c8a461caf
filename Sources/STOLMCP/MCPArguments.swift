import Foundation
import STOLEngine
import STOLJSON
import STOLProtocol

/// A tool call's `arguments`, read field by field; each failure is an `MCPToolError` that names
/// the argument, so the model can fix its call.
struct MCPArguments: Sendable {
    let values: JSONValue

    init(_ values: JSONValue?) throws {
        switch values {
        case nil, .null?: self.values = .object([])
        case .object?: self.values = values!
        default: throw MCPToolError(message: "arguments must be an object")
        }
    }

    func string(_ name: String, required: Bool = false, maxLength: Int = 200) throws -> String? {
        guard let value = values[name], value != .null else {
            if required { throw MCPToolError(message: "\(name) is required") }
            return nil
        }
        guard let text = value.stringValue else { throw MCPToolError(message: "\(name) must be a string") }
        guard text.count <= maxLength else { throw MCPToolError(message: "\(name) must be at most \(maxLength) characters") }
        return text
    }

    func integer(_ name: String, default fallback: Int, range: ClosedRange<Int>) throws -> Int {
        guard let value = values[name], value != .null else { return fallback }
        guard case .number(let text) = value, JSONNumber.integer(text) != .notIntegral else { throw MCPToolError(message: "\(name) must be an integer") }
        guard case .exact(let number) = JSONNumber.integer(text), let int = Int(exactly: number), range.contains(int) else {
            throw MCPToolError(message: "\(name) " + IntegerBounds.outOfRange(Int64(range.lowerBound)...Int64(range.upperBound)))
        }
        return int
    }

    /// One of the names of `T` (a rank, a status); an unknown name is the engine's own error for it.
    func named<T: EnumeratedParam>(_ type: T.Type, _ name: String) throws -> T? {
        guard let text = try string(name) else { return nil }
        guard let value = T(rawValue: text) else { throw MCPServer.toolError(RPCError.invalidParams(field: name, T.invalidDetail)) }
        return value
    }

    /// A taxon given as an id (integer or digits) or a name.
    func taxon(_ name: String) throws -> TaxonReference {
        guard let value = values[name], value != .null else { throw MCPToolError(message: "\(name) is required: a taxon id, a scientific name or a common name") }
        if let id = value.int64Value { return .id(id) }
        guard let text = value.stringValue, !text.trimmingCharacters(in: .whitespaces).isEmpty, text.count <= 200 else {
            throw MCPToolError(message: "\(name) must be a taxon id, a scientific name or a common name")
        }
        if let id = Int64(text.trimmingCharacters(in: .whitespaces)) { return .id(id) }
        return .name(text)
    }

    /// The answer language, canonical as serve mode's `lang` (`BCP47.canonical`); English when absent.
    func language() throws -> String {
        let written = try string("language", maxLength: 35) ?? "en"
        guard let tag = BCP47.canonical(written) else { throw MCPToolError(message: "language must be a language tag such as en, es, pt-BR or de_DE") }
        return tag
    }
}
