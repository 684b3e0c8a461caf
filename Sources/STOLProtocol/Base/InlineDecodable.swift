import STOLJSON

/// A request that can also be read straight from a `JSONValue`, without a `Decoder`: for the
/// engine's inline answers (given on its intake thread, without a task), where `Codable`
/// decoding was a tenth of the cost of a `taxon/get`.
///
/// `init(inline:)` accepts only the plain, valid shape and returns nil for anything else; the
/// request then goes through `Decodable`, which decides and reports errors, so the two never
/// disagree on what is valid.
public protocol InlineDecodable: Sendable {
    init?(inline params: JSONValue?)
}
