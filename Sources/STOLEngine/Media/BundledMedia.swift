import Foundation
import STOLProtocol

/// The photographs that ship inside the engine: the specification's bundled media pack. They live
/// in `Resources/BundledMedia` (made by `scripts/bundled-media.sh`): `photos.tsv` with each photo's
/// file, the scientific name of what it shows, its author, licence and source page, and each file
/// in two sizes, `thumbnail/` and `page/`. Always available, never deletable, never written.
/// Photos are matched to the active database's taxa by name (`BundledMedia+Matching.swift`).
public struct BundledMedia: Sendable {
    /// The pack id the bundled photographs answer with; no installed pack may take it.
    public static let packID = "bundled"
    /// The name `media/packs` shows.
    public static let packName = "Photographs that ship with the engine"

    /// One photograph, with its credits and its files.
    public struct Photo: Sendable, Equatable {
        public var file: String
        /// What it shows, as its credits name it (`Canis lupus familiaris`).
        public var scientificName: String
        public var author: String
        public var license: String
        /// The page the photograph comes from.
        public var source: String
        /// One file per `ImageSize`, in `ImageSize.allCases` order.
        public var renditions: [Rendition]

        /// The line to show under it: `Photo: Kurt Kaiser, Wikimedia Commons`.
        public var credit: String {
            let host = URL(string: source)?.host ?? ""
            return host.hasSuffix("commons.wikimedia.org") ? "Photo: \(author), Wikimedia Commons" : "Photo: \(author)"
        }
    }

    /// One file of a photograph.
    public struct Rendition: Sendable, Equatable {
        public var size: ImageSize
        public var url: URL
        public var mimeType: String
        public var width: Int
        public var height: Int
        public var bytes: Int64
    }

    /// Why the bundled photographs could not be read (a packaging fault, never the user's).
    public struct LoadError: Error, CustomStringConvertible {
        public var description: String
    }

    public var photos: [Photo]

    /// Bytes of every file, for `storage/report`.
    public var bytes: Int64 { photos.reduce(0) { $0 + $1.renditions.reduce(0) { $0 + $1.bytes } } }

    /// The photographs in the engine's resources.
    public static func embedded() throws -> BundledMedia {
        guard let url = Bundle.module.url(forResource: "BundledMedia", withExtension: nil, subdirectory: "Resources") else {
            throw LoadError(description: "the bundled images are missing from the engine's resources")
        }
        return try load(from: url)
    }

    /// Reads `photos.tsv` in `directory` and the header of every file it names. Blocking; small.
    public static func load(from directory: URL) throws -> BundledMedia {
        let manifest = directory.appendingPathComponent("photos.tsv")
        guard let text = try? String(contentsOf: manifest, encoding: .utf8) else { throw LoadError(description: "cannot read \(manifest.path)") }
        var photos: [Photo] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where number > 0 && !line.isEmpty {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5, fields.allSatisfy({ !$0.isEmpty }) else {
                throw LoadError(description: "photos.tsv line \(number + 1): expected 5 fields (file, scientific_name, author, license, source)")
            }
            var renditions: [Rendition] = []
            for size in ImageSize.allCases {
                let url = directory.appendingPathComponent(size.rawValue).appendingPathComponent(fields[0])
                guard let data = FileManager.default.contents(atPath: url.path), let info = ImageHeader.read(Array(data)) else {
                    throw LoadError(description: "photos.tsv line \(number + 1): \(size.rawValue)/\(fields[0]) is missing or not a PNG or JPEG image")
                }
                renditions.append(Rendition(size: size, url: url, mimeType: info.mimeType, width: info.width, height: info.height, bytes: Int64(data.count)))
            }
            photos.append(Photo(file: fields[0], scientificName: fields[1], author: fields[2], license: fields[3], source: fields[4], renditions: renditions))
        }
        return BundledMedia(photos: photos)
    }
}
