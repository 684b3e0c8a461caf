/// An installed media pack, or the bundled photographs.
public struct MediaPack: Codable, Hashable, Sendable, Identifiable {
    public var id: String
    public var name: String
    public var version: String
    public var bytes: Int64
    /// Images in an installed pack; photographs (each in every `ImageSize`) in the bundled one.
    public var imageCount: Int
    /// False for the bundled photographs, which ship with the engine.
    public var deletable: Bool
    /// True for the bundled photographs.
    public var bundled: Bool
    /// The bundled photographs that show no taxon of the active database, by scientific name.
    public var unmatched: [String]?

    public init(
        id: String, name: String, version: String, bytes: Int64, imageCount: Int, deletable: Bool, bundled: Bool = false,
        unmatched: [String]? = nil
    ) {
        self.id = id
        self.name = name
        self.version = version
        self.bytes = bytes
        self.imageCount = imageCount
        self.deletable = deletable
        self.bundled = bundled
        self.unmatched = unmatched
    }
}
