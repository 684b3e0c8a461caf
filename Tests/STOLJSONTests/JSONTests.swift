import Foundation
import Testing

@testable import STOLJSON

@Suite struct JSONParserTests {
    func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test func numbersKeepTheirExactText() throws {
        for literal in ["1.50", "1e3", "-0", "123456789012345678901234567890", "2.5E-7", "9007199254740993"] {
            #expect(try parse(literal) == .number(literal))
        }
    }

    @Test func rejectsMalformedNumbers() {
        for bad in ["01", "1.", ".5", "-", "1e", "+1", "0x10", "NaN", "Infinity"] {
            #expect(throws: JSONParser.Failure.self) { try parse(bad) }
        }
    }

    @Test func rejectsInvalidUTF8ButAcceptsValidMultibyte() throws {
        #expect(throws: JSONParser.Failure.invalidUTF8) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONParser.Failure.invalidUTF8) { try JSONParser.parse([0x22, 0xED, 0xA0, 0x80, 0x22]) }  // surrogate
        #expect(throws: JSONParser.Failure.invalidUTF8) { try JSONParser.parse([0x22, 0xC0, 0xAF, 0x22]) }  // overlong
        #expect(try parse("\"Löwe 🦁\"") == .string("Löwe 🦁"))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try parse(#""a\"b\\c\/d\n\t\u00e9\ud83e\udd81""#) == .string("a\"b\\c/d\n\té🦁"))
        #expect(try parse(#""\ud800x""#) == .string("\u{FFFD}x"))
    }

    @Test func rejectsControlCharactersAndTrailingData() {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array("\"a\u{01}b\"".utf8)) }
        #expect(throws: JSONParser.Failure.self) { try parse("{} {}") }
        #expect(throws: JSONParser.Failure.self) { try parse("[1,]") }
        #expect(throws: JSONParser.Failure.self) { try parse("{\"a\" 1}") }
        #expect(throws: JSONParser.Failure.self) { try parse("") }
    }

    @Test func capsNestingDepthWithoutExhaustingTheStack() throws {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParser.Failure.tooDeep(limit: JSONParser.defaultMaxDepth)) { try parse(deep) }
        let ok = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        _ = try parse(ok)
    }

    @Test func objectsKeepOrderAndLastDuplicateWins() throws {
        let value = try parse(#"{"b":1,"a":2,"b":3}"#)
        #expect(value["b"] == .number("3"))
        #expect(value.description == #"{"b":1,"a":2,"b":3}"#)
    }
}

@Suite struct JSONWriterTests {
    @Test func escapesLineSeparatorsAndControls() {
        let text = JSONWriter.encode(.string("a\u{2028}b\u{2029}c\n\u{01}\"\\"))
        #expect(String(decoding: text, as: UTF8.self) == #""a\u2028b\u2029c\n\u0001\"\\""#)
        #expect(!text.contains(0x0A))
    }

    /// Strings that need no escape are copied whole; other characters led by 0xE2 (→, €) and
    /// non-ASCII letters pass unchanged, in both the whole-copy and the byte-by-byte path.
    @Test func copiesWhatNeedsNoEscape() throws {
        for plain in ["Panthera leo", "Löwe 🦁", "a → b € c", "", "a→\u{2028}"] {
            let text = JSONWriter.encode(.string(plain))
            #expect(try JSONParser.parse(text) == .string(plain), "\(plain)")
        }
        #expect(String(decoding: JSONWriter.encode(.string("Löwe → 🦁")), as: UTF8.self) == "\"Löwe → 🦁\"")
        var out: [UInt8] = []
        JSONObject.write(into: &out) { o in
            o.member("a", "x\"y")
            o.member("b", ifPresent: nil as String?)
            o.member(dynamic: "c\"d", 1)
        }
        #expect(String(decoding: out, as: UTF8.self) == #"{"a":"x\"y","c\"d":1}"#)
    }

    @Test func rewritesSeparatorsInForeignJSON() {
        var bytes = Array("{\"x\":\"a\u{2028}b\"}".utf8)
        JSONWriter.escapeLineSeparators(&bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"x":"a\u2028b"}"#)
    }

    @Test func roundTripsThroughTheParser() throws {
        let value: JSONValue = .object(["a": [1, "two", nil, true], "b": .number("1.50"), "c": .object([])])
        #expect(try JSONParser.parse(JSONWriter.encode(value)) == value)
    }
}

@Suite struct NumberTextTests {
    /// `JSONWriter.numberText` is the one way a Double is written: as `JSONEncoder` writes it.
    @Test func doublesAreWrittenAsJSONEncoderWritesThem() throws {
        let values: [Double] = [0, 1, -3, 0.85, 2.5, 0.1 + 0.2, 1e15, 1e16, 9_007_199_254_740_992, 1e20, 1.5e-7, 1e300, 123.25]
        for value in values {
            let viaEncoder = String(decoding: try JSONEncoder().encode([value]), as: UTF8.self)
            var fast: [UInt8] = []
            [value].writeJSON(into: &fast)
            #expect(String(decoding: fast, as: UTF8.self) == viaEncoder, "\(value)")
        }
    }

    /// The document form keeps what the protocol form escapes, as Python's `json.dumps` does.
    @Test func documentFormKeepsLineSeparatorsAndShortEscapes() {
        let text = "a\u{2028}b\u{8}c\u{C}"
        #expect(String(decoding: JSONWriter.encode(.string(text)), as: UTF8.self) == #""a\u2028b\u0008c\u000c""#)
        #expect(String(decoding: JSONWriter.formatted(.string(text)), as: UTF8.self) == "\"a\u{2028}b\\bc\\f\"\n")
    }
}
