import Testing
@testable import STOLRPC

@Suite struct LineFramerTests {
    func lines(_ events: [LineFramer.Event]) -> [String] {
        events.compactMap { if case .line(let l) = $0 { String(decoding: l, as: UTF8.self) } else { nil } }
    }

    @Test func splitsSeveralMessagesInOneChunk() {
        var framer = LineFramer(maxLineBytes: 100)
        #expect(lines(framer.push(Array("a\nb\nc".utf8))) == ["a", "b"])
        #expect(lines(framer.finish()) == ["c"])
    }

    @Test func joinsAMessageSplitInsideAMultibyteCharacter() {
        var framer = LineFramer(maxLineBytes: 100)
        let bytes = Array("{\"n\":\"Löwe🦁\"}\n".utf8)
        var out: [LineFramer.Event] = []
        for byte in bytes { out += framer.push([byte]) }
        #expect(lines(out) == ["{\"n\":\"Löwe🦁\"}"])
    }

    @Test func dropsCRAndSkipsBlankLines() {
        var framer = LineFramer(maxLineBytes: 100)
        #expect(lines(framer.push(Array("a\r\n\r\n  \t \n\nb\r\n".utf8))) == ["a", "b"])
    }

    @Test func reportsAnOversizedLineOnceAndRecovers() {
        var framer = LineFramer(maxLineBytes: 10)
        var events = framer.push(Array(String(repeating: "x", count: 7).utf8))
        events += framer.push(Array(String(repeating: "y", count: 50).utf8))
        events += framer.push(Array("z\nok\n".utf8))
        #expect(events == [.oversized(size: 58), .line(Array("ok".utf8))])
        #expect(framer.bufferedBytes == 0)
    }

    @Test func aLineExactlyAtTheCapIsAcceptedEvenWithCRLF() {
        var framer = LineFramer(maxLineBytes: 4)
        #expect(lines(framer.push(Array("abcd\r\nabcde\n".utf8))) == ["abcd"])
    }
}
