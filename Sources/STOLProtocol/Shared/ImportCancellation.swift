/// `database/cancelImport`'s and `media/cancelImport`'s answer: whether an import was running
/// and has been told to stop.
public struct ImportCancellation: Codable, Hashable, Sendable {
    /// False when no import was running.
    public var cancelled: Bool

    public init(cancelled: Bool) {
        self.cancelled = cancelled
    }
}
