import STOLJSON

/// A param that takes one of a fixed set of names (`rank`, `size`, `sort`, …). An unknown name
/// fails decoding with invalid params naming the member and saying what it must be, the error
/// the engine answers with; the OpenRPC generator lists the names.
public protocol EnumeratedParam: RawRepresentable<String>, CaseIterable, Codable, Sendable {
    /// What an unknown name is told: "must be one of a, b, c" unless the type says otherwise.
    static var invalidDetail: String { get }
    /// Whether the error's `data` lists the names (`allowed`).
    static var listsAllowed: Bool { get }
}

extension EnumeratedParam {
    public static var invalidDetail: String { "must be one of \(allCases.map(\.rawValue).joined(separator: ", "))" }
    public static var listsAllowed: Bool { false }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let value = Self(rawValue: name) else {
            let field = decoder.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            let error = Self.listsAllowed
                ? RPCError.invalidParams(field: field.isEmpty ? nil : field, Self.invalidDetail, ["allowed": .array(Self.allCases.map { .string($0.rawValue) })])
                : RPCError.invalidParams(field: field.isEmpty ? nil : field, Self.invalidDetail)
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: Self.invalidDetail, underlyingError: error))
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
