// libFuzzer entry point: the bytes go through `LineFramer` in random chunk splits, each line
// through `JSONParser` and `IncomingMessage`, and every parsed value is round-tripped through
// `JSONWriter`. Any broken invariant traps, which libFuzzer reports as a crash.
import STOLRPC
import STOLJSON

@_cdecl("LLVMFuzzerTestOneInput")
public func rpcFuzzerTestOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    FuzzChecks.run(bytes)
    return 0
}

enum FuzzChecks {
    static func run(_ input: [UInt8]) {
        // The first byte picks the framer's size cap (small caps exercise the oversized path)
        // and seeds the chunk splits; the rest is the stream.
        let control = input[0]
        let stream = Array(input.dropFirst())
        let cap = control < 128 ? Int(control) + 1 : 64 << 20

        // 1. Framing must not depend on how the stream is cut into chunks.
        var whole = LineFramer(maxLineBytes: cap)
        var expected = whole.push(stream)
        expected += whole.finish()
        check(whole.bufferedBytes == 0, "framer kept bytes after finish")

        var chunked = LineFramer(maxLineBytes: cap)
        var events: [LineFramer.Event] = []
        // Chunk sizes from 1 to 17, in a sequence the control byte picks.
        var offset = 0, step = Int(control)
        while offset < stream.count {
            step = (step &* 5 &+ 3) & 0xFF
            let size = min(stream.count - offset, 1 + step % 17)
            events += chunked.push(Array(stream[offset..<offset + size]))
            check(chunked.bufferedBytes <= cap + 1, "framer buffered more than the cap")
            offset += size
        }
        events += chunked.finish()
        check(events == expected, "framing depends on chunk boundaries")

        for event in events {
            switch event {
            case .line(let line):
                check(!line.contains(0x0A), "a framed line holds LF")
                check(line.count <= cap, "a framed line is over the cap")
                check(!line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }, "a blank line was framed")
                decode(line)
            case .oversized(let size):
                check(size > cap, "oversized event for a line within the cap")
            }
        }

        // 2. The parser also sees the raw input, newlines and all.
        decode(stream)
    }

    static func decode(_ line: [UInt8]) {
        guard let value = try? JSONParser.parse(line) else { return }
        roundTrip(value)
        if case .array(let entries) = value {
            for entry in entries { classify(entry) }
        } else {
            classify(value)
        }
    }

    static func classify(_ value: JSONValue) {
        switch IncomingMessage(value) {
        case .request(let request):
            check(value.isObject, "a non-object became a request")
            if let params = request.params {
                switch params {
                case .object, .array: break
                default: check(false, "params of the wrong type accepted")
                }
            }
        case .invalid(_, let error):
            check(error.code == -32600, "invalid entry with code \(error.code)")
            roundTrip(error.json)
        case .response:
            break
        }
    }

    /// parse(write(v)) == v, and the written form is one line with no raw U+2028/U+2029.
    static func roundTrip(_ value: JSONValue) {
        let encoded = JSONWriter.encode(value)
        check(!encoded.contains(0x0A) && !encoded.contains(0x0D), "encoded JSON holds a raw line break")
        for i in encoded.indices.dropLast(2) where encoded[i] == 0xE2 && encoded[i + 1] == 0x80 {
            check(encoded[i + 2] != 0xA8 && encoded[i + 2] != 0xA9, "encoded JSON holds raw U+2028/U+2029")
        }
        let reparsed: JSONValue
        do {
            reparsed = try JSONParser.parse(encoded)
        } catch {
            fatalError("JSONWriter output does not parse: \(error)")
        }
        check(reparsed == value, "parse(write(v)) != v")
        check(JSONWriter.encode(reparsed) == encoded, "write is not stable")
    }

    static func check(_ condition: Bool, _ what: @autoclosure () -> String) {
        if !condition { fatalError("fuzz invariant broken: \(what())") }
    }
}
