import Foundation
import STOLJSON
import STOLProtocol
import STOLSupport
import Testing

@testable import STOLRPC

/// `MethodTable.on(_:inline:_:)`: answers given on the intake thread without a task, and
/// every case where the request must take the usual path instead.
@Suite struct InlineAnswerTests {

    /// Which path answered, and the input read the inline one was told about.
    struct Answer: Codable, Sendable {
        var path: String
        var n: Int
        var inputRead: Int?
    }

    struct Echo: RPCRequest {
        typealias Response = Answer
        static let method = "echo"
        var n: Int
    }

    struct ReadA: RPCRequest {
        typealias Response = Answer
        static let method = "readA"
        static let ordering = MethodOrdering.reads("a")
        var n: Int
    }

    /// `echo` answers at once for even numbers; odd ones, and everything the server must not
    /// answer at once, go to the handler. Negative numbers make the inline form throw.
    static func table(value: Locked<Int> = Locked(0)) -> MethodTable {
        var methods = MethodTable()
        methods.on(Echo.self, inline: { p, context in
            if p.n < 0 { throw RPCError.invalidParams(field: "n", "must not be negative") }
            return p.n % 2 == 0 ? Answer(path: "inline", n: p.n, inputRead: context.inputRead) : nil
        }) { p, context in
            if p.n < 0 { throw RPCError.invalidParams(field: "n", "must not be negative (handler)") }
            if let progress = context.progress { progress.begin(title: "echo"); progress.end() }
            return Answer(path: "task", n: p.n)
        }
        methods.on(ReadA.self, inline: { p, _ in Answer(path: "inline", n: value.withLock { $0 }) }) { p, _ in
            Answer(path: "task", n: value.withLock { $0 })
        }
        methods.on("slowSetA", ordering: .writes("a")) { (_: JSONValue, _) in
            try await Task.sleep(for: .milliseconds(300))
            value.withLock { $0 = 42 }
            return EmptyResponse()
        }
        return methods
    }

    @Test func answersAtOnceWhenItCan() async throws {
        let h = ServerHarness(methods: Self.table())
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"n":2}}"#)
        let answer = await h.next()
        #expect(answer?["result"]?["path"] == "inline")
        #expect((answer?["result"]?["inputRead"]?.int64Value ?? 0) >= 1)
    }

    @Test func declinedRequestsRunAsUsual() async throws {
        let h = ServerHarness(methods: Self.table())
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"n":3}}"#)
        #expect(await h.next()?["result"]?["path"] == "task")
    }

    /// An error in the inline form is never the answer: the handler decides, so errors have one path.
    @Test func errorsAreTheHandlers() async throws {
        let h = ServerHarness(methods: Self.table())
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"n":-2}}"#)
        let answer = await h.next()
        #expect(answer?["error"]?["code"] == .number("-32602"))
        #expect(answer?["error"]?["data"]?["detail"]?.stringValue?.hasSuffix("(handler)") == true)
        h.send(#"{"jsonrpc":"2.0","id":2,"method":"echo","params":{"n":"two"}}"#)
        #expect(await h.next()?["error"]?["data"]?["field"] == "n")
    }

    @Test func aProgressTokenTakesTheUsualPath() async throws {
        let h = ServerHarness(methods: Self.table())
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"n":4,"_meta":{"progressToken":"p"}}}"#)
        var messages: [JSONValue] = []
        while let message = await h.next() {
            messages.append(message)
            if message["id"] != nil { break }
        }
        #expect(messages.last?["result"]?["path"] == "task")
        #expect(messages.contains { $0["method"] == "$/progress" })
    }

    @Test func notificationsAreNeverAnsweredAtOnce() async throws {
        let h = ServerHarness(methods: Self.table())
        h.send(#"{"jsonrpc":"2.0","method":"echo","params":{"n":2}}"#)
        h.send(#"{"jsonrpc":"2.0","id":9,"method":"echo","params":{"n":8}}"#)
        let answer = await h.next()
        #expect(answer?["id"] == .number("9"), "the notification got no answer")
    }

    /// A read behind an earlier write of what it reads waits for it, as its ordering says, instead
    /// of answering at once from the state before the write.
    @Test func aReadBehindAWriteOfItsResourceWaits() async throws {
        let h = ServerHarness(methods: Self.table())
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"slowSetA"}"#)
        h.send(#"{"jsonrpc":"2.0","id":2,"method":"readA","params":{"n":0}}"#)
        #expect(await h.next()?["id"] == .number("1"))
        let read = await h.next()
        #expect(read?["result"]?["path"] == "task")
        #expect(read?["result"]?["n"] == .number("42"))
        h.send(#"{"jsonrpc":"2.0","id":3,"method":"readA","params":{"n":0}}"#)
        let later = await h.next()
        #expect(later?["result"]?["path"] == "inline", "nothing in flight: answered at once")
        #expect(later?["result"]?["n"] == .number("42"))
    }

    /// Requests written together arrive in one read and share its number; a request written after
    /// an answer came back arrives in a later read.
    @Test func eachReadOfTheInputIsAMoment() async throws {
        let h = ServerHarness(methods: Self.table())
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"n":2}}"# + "\n" + #"{"jsonrpc":"2.0","id":2,"method":"echo","params":{"n":4}}"#)
        let first = await h.next(), second = await h.next()
        let together = [first, second].compactMap { $0?["result"]?["inputRead"]?.int64Value }
        #expect(together.count == 2 && together[0] == together[1])
        h.send(#"{"jsonrpc":"2.0","id":3,"method":"echo","params":{"n":6}}"#)
        let later = await h.next()?["result"]?["inputRead"]?.int64Value ?? 0
        #expect(later > (together.first ?? .max))
    }

    @Test func nothingIsAnsweredAtOnceAfterShutdown() async throws {
        let h = ServerHarness(methods: Self.table())
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#)
        #expect(await h.next()?["id"] == .number("1"))
        h.send(#"{"jsonrpc":"2.0","id":2,"method":"echo","params":{"n":2}}"#)
        #expect(await h.next()?["error"]?["code"] != nil)
    }
}
