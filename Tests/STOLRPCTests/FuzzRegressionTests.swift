import STOLJSON
import Testing

@testable import STOLRPC

/// Inputs the stdio fuzzer found; each once produced output that was not valid JSON-RPC.
@Suite struct FuzzRegressionTests {
    @Test func overflowingArithmeticIsAnErrorNotInfOrNaN() async throws {
        let h = ServerHarness()
        for line in [
            #"{"jsonrpc":"2.0","id":1,"method":"sum","params":[1e400]}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"subtract","params":[1e308,-1e308]}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"sum","params":[1e400,-1e400]}"#,
        ] {
            h.send(line)
            let response = await h.next()
            #expect(response?["error"]?["code"] == .number("-32602"), "\(line)")
        }
    }

    @Test func notificationsNeverCarryNullOrScalarParams() async throws {
        let h = ServerHarness()
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"test/notify","params":{"method":"x"}}"#)
        let notification = await h.next()
        #expect(notification == .object(["jsonrpc": "2.0", "method": "x"]))
        #expect(await h.next()?["id"] == .number("1"))
        h.send(#"{"jsonrpc":"2.0","id":2,"method":"test/notify","params":{"method":"x","params":"str"}}"#)
        let refused = await h.next()
        #expect(refused?["id"] == .number("2"))
        #expect(refused?["error"]?["data"]?["field"] == "params")
    }
}
