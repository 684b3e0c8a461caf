/// `favorites/export`'s and `diagnostics/export`'s answer: plain text for the user to read and share.
public struct ExportedText: Codable, Hashable, Sendable {
    public var text: String
    /// The language of the text's title (`favorites/export`); absent for the diagnostics log.
    public var lang: String?

    public init(text: String, lang: String? = nil) {
        self.text = text
        self.lang = lang
    }
}
