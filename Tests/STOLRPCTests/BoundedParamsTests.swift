import STOLJSON
import STOLProtocol
import Testing

@testable import STOLRPC

/// Integer ranges checked where params are decoded, and exact reading of JSON numbers.
@Suite struct BoundedParamsTests {
    @Test func numbersAreReadExactlyAsIntegers() {
        let cases: [(String, JSONNumber.Integer)] = [
            ("0", .exact(0)), ("-0", .exact(0)), ("3.0", .exact(3)), ("3e2", .exact(300)), ("12.50e1", .exact(125)), ("100e-2", .exact(1)),
            ("0.000e5", .exact(0)), ("0e-99999999999999999999", .exact(0)), ("9223372036854775807", .exact(.max)),
            ("-9223372036854775808", .exact(.min)), ("9007199254740993", .exact(9_007_199_254_740_993)),
            ("9223372036854775808", .beyondInt64), ("-9223372036854775809", .beyondInt64), ("12345678901234567890", .beyondInt64),
            ("1e400", .beyondInt64), ("1e99999999999999999999", .beyondInt64), ("1.5", .notIntegral), ("1e-3", .notIntegral),
            ("1e-99999999999999999999", .notIntegral), ("2.5E-7", .notIntegral),
        ]
        for (text, expected) in cases { #expect(JSONNumber.integer(text) == expected, "\(text)") }
        // A long run of zeros is read in linear time (no quadratic trimming).
        #expect(JSONNumber.integer("0." + String(repeating: "0", count: 200_000) + "1") == .notIntegral)
        #expect(JSONNumber.integer(String(repeating: "0", count: 1) + "." + String(repeating: "0", count: 200_000)) == .exact(0))
    }

    struct Page: BoundedParams {
        var id: Int64
        var limit: Int?
        var pairs: [[Int64]]?
        static let integerBounds: [String: ClosedRange<Int64>] = ["id": 1...((1 << 53) - 1), "limit": 1...1000, "pairs.*.*": 1...((1 << 53) - 1)]
    }

    func decode(_ text: String) throws(RPCError) -> Page {
        let value: JSONValue
        do { value = try JSONParser.parse(Array(text.utf8)) } catch { fatalError("\(error)") }
        return try ParamsDecoding.decode(Page.self, from: value)
    }

    @Test func outOfRangeNamesTheFieldAndTheRange() throws {
        let taxonIDs = "is out of range: must be an integer from 1 to 9007199254740991"
        #expect(throws: RPCError.invalidParams(field: "id", taxonIDs)) { try decode(#"{"id": 9007199254740993}"#) }
        #expect(throws: RPCError.invalidParams(field: "id", taxonIDs)) { try decode(#"{"id": 12345678901234567890}"#) }
        #expect(throws: RPCError.invalidParams(field: "id", taxonIDs)) { try decode(#"{"id": 0}"#) }
        #expect(throws: RPCError.invalidParams(field: "limit", "is out of range: must be an integer from 1 to 1000")) { try decode(#"{"id": 1, "limit": 1e4}"#) }
        #expect(throws: RPCError.invalidParams(field: "pairs.1.0", taxonIDs)) { try decode(#"{"id": 1, "pairs": [[1, 2], [-5, 2]]}"#) }
        #expect(throws: RPCError.invalidParams(field: "id", "must be an integer")) { try decode(#"{"id": 1.5}"#) }
        #expect(throws: RPCError.invalidParams(field: "id", "must be an integer")) { try decode(#"{"id": "7"}"#) }
        let page = try decode(#"{"id": 9007199254740991, "limit": 1e3, "pairs": [[1, 3.0]]}"#)
        #expect(page.id == 9_007_199_254_740_991 && page.limit == 1000 && page.pairs == [[1, 3]])
    }

    /// Without a declared range, a number too big for the Swift type is still out of range, not
    /// "not an integer".
    @Test func theDecoderSaysOutOfRangeForTheTypesOwnLimits() throws {
        struct Small: Decodable { var n: Int32 }
        let value = try JSONParser.parse(Array(#"{"n": 3000000000}"#.utf8))
        #expect(throws: RPCError.invalidParams(field: "n", "is out of range: must be an integer from -2147483648 to 2147483647")) {
            try ParamsDecoding.decode(Small.self, from: value)
        }
    }
}
