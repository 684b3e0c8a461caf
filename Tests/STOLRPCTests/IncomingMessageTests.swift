import STOLJSON
import STOLProtocol
import Testing

@testable import STOLRPC

@Suite struct IncomingMessageTests {
    func classify(_ text: String) throws -> IncomingMessage { IncomingMessage(try JSONParser.parse(Array(text.utf8))) }

    func invalid(_ text: String) throws -> (RequestID, Int)? {
        if case let .invalid(id, error) = try classify(text) { return (id, error.code) }
        return nil
    }

    @Test func acceptsRequestsAndNotifications() throws {
        guard case .request(let r) = try classify(#"{"jsonrpc":"2.0","id":"a","method":"m","params":{"x":1}}"#) else { Issue.record(); return }
        #expect(r.id == .string("a") && r.method == "m" && !r.isNotification)
        guard case .request(let n) = try classify(#"{"jsonrpc":"2.0","method":"m","params":[1]}"#) else { Issue.record(); return }
        #expect(n.isNotification)
        guard case .request(let nullID) = try classify(#"{"jsonrpc":"2.0","id":null,"method":"m"}"#) else { Issue.record(); return }
        #expect(nullID.id == .null)
    }

    @Test func rejectsStructuredIdsWithNullId() throws {
        for id in ["{}", "[1]", "true", "false"] {
            let result = try invalid(#"{"jsonrpc":"2.0","id":\#(id),"method":"m"}"#)
            #expect(result?.0 == .null && result?.1 == -32600)
        }
    }

    @Test func recoversTheIdOfAnOtherwiseInvalidRequest() throws {
        #expect(try invalid(#"{"jsonrpc":"1.0","id":7,"method":"m"}"#)?.0 == .number("7"))
        #expect(try invalid(#"{"id":"x","method":"m"}"#)?.0 == .string("x"))
        #expect(try invalid(#"{"jsonrpc":"2.0","id":8,"method":1}"#)?.0 == .number("8"))
        #expect(try invalid(#"{"jsonrpc":"2.0","id":9,"method":"m","params":"p"}"#)?.0 == .number("9"))
        #expect(try invalid(#"{"jsonrpc":"2.0","id":10}"#)?.0 == .number("10"))
    }

    @Test func rejectsNonObjects() throws {
        #expect(try invalid("1")?.1 == -32600)
        #expect(try invalid(#""x""#)?.1 == -32600)
    }

    @Test func ignoresResponsesFromTheClient() throws {
        guard case .response = try classify(#"{"jsonrpc":"2.0","id":1,"result":2}"#) else { Issue.record(); return }
    }
}
