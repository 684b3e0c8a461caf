/// What a method answering inline, on the server's intake thread (`MethodTable.on(_:inline:_:)`),
/// knows about its request.
public struct InlineContext: Sendable {
    /// The number of the input read that delivered the request (1, 2, …). The client wrote the
    /// request, and did everything it did before writing it, before that read returned; so a
    /// check made after the read (has another process changed a file?) holds for every request
    /// the same read delivered, and need not be repeated for each.
    public let inputRead: Int
}
