import STOLProtocol

/// Where an engine runs: a way to start one and reach its protocol stream. `ProcessTransport`
/// spawns the binary (macOS, Linux); `InProcessTransport` (the STOLInProcess library) runs the
/// engine in the app's own process, where spawning is not allowed (iOS).
public protocol EngineTransport: Sendable {
    /// Starts an engine and returns the channel to it.
    func start() throws -> EngineChannel
}

/// A running engine as the client reaches it: a descriptor to write requests to (its stdin), one
/// to read its messages from (its stdout), and how to end it and learn how it ended.
public struct EngineChannel: Sendable {
    /// Where requests go. The client closes it to tell the engine that no more input follows.
    public var input: Int32
    /// Where the engine's messages come from; it reaches its end when the engine stops writing.
    public var output: Int32
    /// The engine's own process id, when it runs as a process of its own.
    public var processID: Int32?
    /// The process id to give `initialize.processId`, so that the engine ends when the app does;
    /// nil for an engine in the app's own process.
    public var watchedProcessID: Int32?
    /// Ends the engine at once (a stuck or unwanted one).
    public var terminate: @Sendable () -> Void
    /// Waits until the engine has ended, and says how.
    public var exit: @Sendable () async -> EngineExit
    /// Releases what the channel holds (descriptors, the process object) once the engine has
    /// ended and its output has been read to the end.
    public var release: @Sendable () -> Void

    public init(
        input: Int32, output: Int32, processID: Int32?, watchedProcessID: Int32?, terminate: @escaping @Sendable () -> Void,
        exit: @escaping @Sendable () async -> EngineExit, release: @escaping @Sendable () -> Void
    ) {
        self.input = input
        self.output = output
        self.processID = processID
        self.watchedProcessID = watchedProcessID
        self.terminate = terminate
        self.exit = exit
        self.release = release
    }
}

/// How an engine ended.
public struct EngineExit: Sendable, Hashable, CustomStringConvertible {
    public enum Cause: Sendable, Hashable {
        /// It exited with this code (0 after `shutdown` and `exit`, or at the end of its input).
        case exited(code: Int32)
        /// A signal ended it (9: killed; 6: it crashed on an assertion).
        case signal(Int32)
    }

    public var cause: Cause
    /// The last lines it wrote to stderr (its log), to say why.
    public var log: String

    public init(cause: Cause, log: String = "") {
        self.cause = cause
        self.log = log
    }

    public var description: String {
        let how: String
        switch cause {
        case .exited(let code): how = "exited with code \(code)"
        case .signal(let signal): how = "was ended by signal \(signal)"
        }
        let last = log.split(separator: "\n").last.map { ": \($0)" } ?? ""
        return "the engine \(how)\(last)"
    }
}
