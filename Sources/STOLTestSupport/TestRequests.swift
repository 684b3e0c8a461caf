import STOLJSON
import STOLProtocol

// Contracts of the methods `--conformance-methods` adds (`MethodTable.conformanceMethods()`),
// for tests that need a slow call or one with progress.

/// `test/sleep {ms}`: answers `{"slept": ms}` after `ms` milliseconds, unless cancelled.
public struct SleepRequest: RPCRequest, Hashable {
    public typealias Response = JSONValue
    public static let method = "test/sleep"
    public var ms: Int
    public init(ms: Int) { self.ms = ms }
}

/// `test/progress {steps, delayMs}`: reports each step as progress, then answers `{"steps": n}`.
public struct CountingRequest: RPCRequest, Hashable {
    public typealias Response = JSONValue
    public static let method = "test/progress"
    public var steps: Int
    public var delayMs: Int?
    public init(steps: Int, delayMs: Int? = nil) {
        self.steps = steps
        self.delayMs = delayMs
    }
}

/// `test/print {text}`: a handler that prints, as a careless one would; answers `{}`.
public struct PrintRequest: RPCRequest, Hashable {
    public typealias Response = EmptyResponse
    public static let method = "test/print"
    public var text: String
    public init(text: String) { self.text = text }
}
