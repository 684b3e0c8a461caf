import STOLJSON
/// Params that can also be read straight from a `JSONValue`, without a `Decoder`: for the
/// answers given at once (`MethodTable.on(_:immediately:_:)`), where `Codable` decoding was a
/// tenth of the cost of a `taxon/get`.
///
/// `init(quick:)` accepts only the plain, valid shape and returns nil for anything else; the
/// request then goes through `Decodable`, which decides and reports errors, so the two never
/// disagree on what is valid.
public protocol QuickDecodable: Sendable {
    init?(quick params: JSONValue?)
}
