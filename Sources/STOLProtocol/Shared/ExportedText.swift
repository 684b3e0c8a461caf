/// `favorites/export`'s and `diagnostics/export`'s answer: plain text for the user to read and share.
public struct ExportedText: Codable, Hashable, Sendable {
    public var text: String

    public init(text: String) {
        self.text = text
    }
}
