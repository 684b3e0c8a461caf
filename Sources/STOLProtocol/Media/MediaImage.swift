import Foundation

/// A taxon's image, as base64 inside the answer: the client may run in a sandbox that cannot
/// open the engine's files, and a path would reveal the user's directory layout.
public struct MediaImage: Codable, Hashable, Sendable {
    public var taxonId: TaxonID
    public var mimeType: String
    public var width: Int
    public var height: Int
    public var credit: String
    public var license: String
    /// The photographer, and the page the image comes from (bundled photographs).
    public var author: String?
    public var source: String?
    /// The species a photograph shows when it stands for another taxon (its genus, or a
    /// domestic form under its species name).
    public var depicts: String?
    public var packId: String
    /// The image file, base64.
    public var data: String
    /// Set when the taxon has no image of its own and this is its genus's.
    public var fallbackFrom: Fallback?

    /// The taxon whose image stands in.
    public struct Fallback: Codable, Hashable, Sendable {
        public var taxonId: TaxonID
        public var rank: String
        public var scientificName: String

        public init(taxonId: TaxonID, rank: String, scientificName: String) {
            self.taxonId = taxonId
            self.rank = rank
            self.scientificName = scientificName
        }
    }

    public init(
        taxonId: TaxonID, mimeType: String, width: Int, height: Int, credit: String, license: String, author: String? = nil,
        source: String? = nil, depicts: String? = nil, packId: String, data: String, fallbackFrom: Fallback? = nil
    ) {
        self.taxonId = taxonId
        self.mimeType = mimeType
        self.width = width
        self.height = height
        self.credit = credit
        self.license = license
        self.author = author
        self.source = source
        self.depicts = depicts
        self.packId = packId
        self.data = data
        self.fallbackFrom = fallbackFrom
    }

    /// The image file's bytes, decoded from `data`.
    public var bytes: Data? { Data(base64Encoded: data) }
}
