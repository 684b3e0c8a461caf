/// A text about a taxon in one language, with its attribution: what `taxon/detail` shows under
/// the names (`descriptions` extension table).
public struct TaxonDescription: Codable, Hashable, Sendable {
    /// The text, as its source wrote it (a Wikipedia introduction, the dataset's own words).
    public var text: String
    /// Its language tag: the requested one, its primary subtag, or `en` when it fell back.
    public var lang: String
    /// The title of its source (the Wikipedia article, the dataset's name).
    public var sourceTitle: String?
    /// A link to the source (shown as text; the engine fetches nothing).
    public var sourceUrl: String?
    /// The licence the text is under (`CC BY-SA 3.0`), to show beside it.
    public var license: String?
    /// Who published it: "English Wikipedia", the dataset's name.
    public var sourceName: String?

    public init(text: String, lang: String, sourceTitle: String? = nil, sourceUrl: String? = nil, license: String? = nil, sourceName: String? = nil) {
        self.text = text
        self.lang = lang
        self.sourceTitle = sourceTitle
        self.sourceUrl = sourceUrl
        self.license = license
        self.sourceName = sourceName
    }
}
