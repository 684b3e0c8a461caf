import Foundation
import STOLEngine
import STOLProtocol

/// The generic descriptions table any source can be written in (README, "Descriptions"): TSV,
/// UTF-8 (gzip or plain), a header line naming the columns, one description per line.
///
/// | column | |
/// |---|---|
/// | `taxon_id` or `scientific_name` (or both, which must then name the same taxon) | the taxon: an id of the built database (an NCBI tax id in an NCBI build), or an accepted name or synonym naming one taxon |
/// | `lang` | BCP-47 tag (`en`, `de`, `pt-BR`) |
/// | `text` | the description: no tabs or line breaks |
/// | `source_title`, `source_url`, `license`, `source_name` | optional attribution: the page's title, a link (`http(s)://`), the licence, who published it |
///
/// A header with an unknown or repeated column, or without `lang`, `text` and a key, is
/// malformed; a file of which more than half the lines are bad is taken as mislabelled (the wrong
/// file, or columns in the wrong order). Either way nothing of the file is used, and the problem is
/// reported with the file and line. A bad line of a good file is reported and skipped.
public struct DescriptionsFile {
    /// A description as read, before it is attached to a taxon.
    public struct Record: Sendable, Equatable {
        /// What names the taxon.
        public enum Subject: Sendable, Equatable, CustomStringConvertible {
            case taxonID(Int64)
            case scientificName(String)
            /// Both columns: they must name the same taxon.
            case both(Int64, String)

            public var description: String {
                switch self {
                case .taxonID(let id): "taxon \(id)"
                case .scientificName(let name): name
                case .both(let id, let name): "taxon \(id) (\(name))"
                }
            }
        }

        public var subject: Subject
        public var description: SourceDescription
        public var location: SourceLocation
    }

    /// What reading a file gave.
    public struct Output: Sendable {
        public var records: [Record] = []
        public var issues: [SourceIssue] = []
        /// True when the file as a whole was refused (malformed or mislabelled): `records` is empty.
        public var refused = false
        /// Lines of descriptions read (good and bad).
        public var lines = 0
    }

    /// Attribution for rows that give none (`--taxa`: the dataset's name and licence).
    public struct Defaults: Sendable {
        public var sourceName: String?
        public var license: String?

        public init(sourceName: String? = nil, license: String? = nil) {
            self.sourceName = sourceName
            self.license = license
        }
    }

    /// The columns the format has.
    public static let keyColumns = ["taxon_id", "scientific_name"]
    public static let requiredColumns = ["lang", "text"]
    public static let optionalColumns = ["source_title", "source_url", "license", "source_name"]
    /// The longest text accepted, in characters.
    public static let maxTextLength = 20_000

    public var defaults: Defaults

    public init(defaults: Defaults = Defaults()) {
        self.defaults = defaults
    }

    /// Reads `url`; only an unreadable file throws.
    public func read(_ url: URL) throws -> Output {
        let file = url.lastPathComponent
        let reader = try DelimitedReader(url: url, format: .tsv)
        var output = Output()
        func refuse(_ message: String, line: Int) -> Output {
            Output(records: [], issues: [SourceIssue("\(message); nothing of \(file) is used", at: SourceLocation(file: file, line: line))], refused: true, lines: output.lines)
        }
        guard let headerRecord = try reader.next() else { return refuse("the file is empty (no header line)", line: 1) }
        let names = headerRecord.fields.map { $0.trimmingCharacters(in: .whitespaces) }
        let known = Self.keyColumns + Self.requiredColumns + Self.optionalColumns
        let expected = "the columns are taxon_id or scientific_name, lang, text, and optionally \(Self.optionalColumns.joined(separator: ", "))"
        if let unknown = names.first(where: { !known.contains($0) }) {
            return refuse("unknown column '\(unknown)' in the header (\(expected))", line: headerRecord.line)
        }
        if let repeated = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            return refuse("column '\(repeated)' appears twice in the header", line: headerRecord.line)
        }
        for column in Self.requiredColumns where !names.contains(column) {
            return refuse("the header has no '\(column)' column (\(expected))", line: headerRecord.line)
        }
        guard names.contains(where: Self.keyColumns.contains) else {
            return refuse("the header has neither 'taxon_id' nor 'scientific_name' (\(expected))", line: headerRecord.line)
        }
        let column = { (name: String) in names.firstIndex(of: name) }
        let idColumn = column("taxon_id"), nameColumn = column("scientific_name")
        let langColumn = column("lang")!, textColumn = column("text")!
        let titleColumn = column("source_title"), urlColumn = column("source_url"), licenseColumn = column("license")
        let sourceNameColumn = column("source_name")

        var seen: Set<String> = []
        var bad = 0
        while let record = try reader.next() {
            output.lines += 1
            let location = SourceLocation(file: file, line: record.line)
            func issue(_ message: String) {
                output.issues.append(SourceIssue(message + "; line skipped", at: location))
                bad += 1
            }
            guard record.fields.count == names.count else {
                issue("expected \(names.count) tab-separated fields (\(names.joined(separator: ", "))), found \(record.fields.count)")
                continue
            }
            func optional(_ index: Int?) -> String? {
                let value = record.trimmed(index)
                return value.isEmpty ? nil : value
            }
            let subject: Record.Subject
            let name = optional(nameColumn).map(BackboneIndex.normalised)
            if let idText = optional(idColumn) {
                guard let id = Int64(idText), id > 0 else {
                    issue("taxon_id '\(idText.prefix(40))' is not a positive integer")
                    continue
                }
                subject = name.map { .both(id, $0) } ?? .taxonID(id)
            } else if let name {
                subject = .scientificName(name)
            } else {
                issue("neither a taxon_id nor a scientific_name")
                continue
            }
            let lang = record.trimmed(langColumn)
            guard BCP47.isLanguageTag(lang) else {
                issue("lang '\(lang.prefix(40))' is not a language tag (en, de, pt-BR)")
                continue
            }
            let text = record.trimmed(textColumn)
            guard !text.isEmpty else {
                issue("the text is empty")
                continue
            }
            guard text.count <= Self.maxTextLength else {
                issue("the text is longer than \(Self.maxTextLength) characters")
                continue
            }
            let url = optional(urlColumn)
            if let url, !(url.hasPrefix("https://") || url.hasPrefix("http://")) {
                issue("source_url '\(url.prefix(60))' is not an http(s) link")
                continue
            }
            guard seen.insert("\(subject)|\(lang)").inserted else {
                issue("a second description of \(subject) in \(lang)")
                continue
            }
            let description = SourceDescription(
                lang: lang, text: text, sourceTitle: optional(titleColumn), sourceURL: url,
                license: optional(licenseColumn) ?? defaults.license, sourceName: optional(sourceNameColumn) ?? defaults.sourceName)
            output.records.append(Record(subject: subject, description: description, location: location))
        }
        if bad > 0, bad * 2 > output.lines {
            var refused = refuse("\(bad) of \(output.lines) lines are bad: the file looks mislabelled (another file, or columns under the wrong names)", line: headerRecord.line)
            refused.issues += output.issues.prefix(5)
            return refused
        }
        return output
    }
}
