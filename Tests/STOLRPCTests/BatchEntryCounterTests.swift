import STOLJSON
import STOLProtocol
import Testing

@testable import STOLRPC

/// Counting a batch's entries without parsing it, so an oversized batch is refused before any
/// value is built.
@Suite struct BatchEntryCounterTests {
    func count(_ text: String) -> Int? { BatchEntryCounter.count(Array(text.utf8)) }

    @Test func countsTopLevelEntriesOnly() {
        #expect(count("[]") == 0)
        #expect(count(" [ ] ") == 0)
        #expect(count("[1]") == 1)
        #expect(count(#"[{"a":[1,2,3],"b":{"c":4}}, [5,6] ,"x,y" , null]"#) == 4)
        #expect(count("\t[{},{},{}]\r\n") == 3)
    }

    @Test func stringsHideBracketsCommasAndEscapedQuotes() {
        #expect(count(#"["a,b]", "c\"],[", "\\", "{"]"#) == 4)
        #expect(count(#"[{"k":"}\"]"},2]"#) == 2)
    }

    @Test func anythingButOneBalancedArrayIsLeftToTheParser() {
        #expect(count(#"{"jsonrpc":"2.0"}"#) == nil)
        #expect(count("[1,2") == nil)
        #expect(count("[1,2]]") == nil)
        #expect(count("[1,2] x") == nil)
        #expect(count("[{]}") == nil)
        #expect(count(#"["unterminated]"#) == nil)
        #expect(count("") == nil)
    }

    /// Over the cap, a batch is refused whole, before parsing: one error, not one per entry.
    @Test func theServerRefusesAnOversizedBatchBeforeParsingIt() async {
        let h = ServerHarness { $0.limits.maxBatchEntries = 3 }
        h.send("[{},{},{},{}]")
        let refused = await h.next()
        #expect(refused?["error"]?["data"]?["kind"] == "batchTooLarge")
        #expect(refused?["error"]?["data"]?["size"] == .number("4"))
        h.send("[{},{},{},{},")
        #expect(await h.next()?["error"]?["code"] == .number("-32700"), "a malformed line is a parse error, whatever its length")
        h.send("[{},{}]")
        #expect(await h.next()?.arrayValue?.count == 2, "each invalid entry of a batch within the cap is answered")
    }
}
