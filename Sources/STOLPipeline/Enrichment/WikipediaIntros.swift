import Foundation
import STOLEngine
import STOLProtocol

/// English Wikipedia's introductions by NCBI tax id (`../shared/data/wikipedia`): TSV with the
/// header `tax_id wikidata enwiki_title intro`, gzip or plain. The texts are CC BY-SA 3.0, by
/// Wikipedia's contributors: each keeps its article's title, link and licence.
public struct WikipediaIntros {
    /// One introduction as read.
    public struct Intro: Sendable {
        public var taxID: Int64
        public var title: String
        public var text: String
        public var location: SourceLocation
    }

    /// Who published the texts, for `descriptions.source_name`.
    public static let sourceName = "English Wikipedia"
    /// Their licence.
    public static let license = "CC BY-SA 3.0"
    /// The dataset credit of a database holding them (`about` lists it among the sources).
    public static let credit = "Descriptions: English Wikipedia contributors, the introductions of the articles linked to the taxa (each names and links its article), CC BY-SA 3.0"

    public init() {}

    /// The article's address: `https://en.wikipedia.org/wiki/` and the title with `_` for spaces,
    /// percent-encoded where a path needs it.
    public static func url(title: String) -> String {
        let path = title.replacingOccurrences(of: " ", with: "_")
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        return "https://en.wikipedia.org/wiki/" + (path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path)
    }

    /// Calls `each` with every introduction of `url`, in file order; returns the lines that could
    /// not be read (reported with file and line).
    public func read(_ url: URL, each: (Intro) throws -> Void) throws -> [SourceIssue] {
        let file = url.lastPathComponent
        let reader = try DelimitedReader(url: url, format: .tsv)
        let header = try DelimitedHeader(reading: reader)
        let taxID = try header.require("tax_id"), title = try header.require("enwiki_title"), intro = try header.require("intro")
        var issues: [SourceIssue] = []
        while let record = try reader.next() {
            let location = SourceLocation(file: file, line: record.line)
            guard let id = Int64(record.trimmed(taxID)), id > 0 else {
                issues.append(SourceIssue("tax_id '\(record.trimmed(taxID).prefix(40))' is not a positive integer; line skipped", at: location))
                continue
            }
            try each(Intro(taxID: id, title: record.trimmed(title), text: record.trimmed(intro), location: location))
        }
        return issues
    }
}
