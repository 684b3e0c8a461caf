import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif
import STOLEngine

/// A Darwin Core Archive's `meta.xml`: which file is the core, which are extensions, and for each
/// its encoding, delimiter, quote character, header lines and the term of every column.
public struct DwCAMeta: Sendable, Equatable {
    /// One data file as `meta.xml` describes it.
    public struct FileSpec: Sendable, Equatable {
        /// The row type's last segment: `Taxon`, `VernacularName`, `Occurrence`, ...
        public var rowType: String
        public var location: String
        public var encoding: String
        public var format: DelimitedReader.Format
        public var headerLines: Int
        /// The column of the core's id (`<id>`) or of the extension's core id (`<coreid>`).
        public var idIndex: Int?
        /// Column of each term, by the term's last segment (`scientificName`).
        public var columns: [String: Int]
        /// Constant values of terms without a column (`<field default=...>`).
        public var defaults: [String: String]
    }

    public var core: FileSpec
    public var extensions: [FileSpec]

    /// Parses `data`; `file` names it in messages.
    public static func parse(_ data: Data, file: String) throws(SourceIssue) -> DwCAMeta {
        let delegate = MetaParser()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        let ok = parser.parse()
        if let problem = delegate.problem { throw SourceIssue(problem, at: SourceLocation(file: file, line: delegate.problemLine)) }
        // On Linux `parse()` can return true after an error it recovered from; the error is still set.
        if !ok || parser.parserError != nil {
            let code = (parser.parserError as NSError?)?.code
            throw SourceIssue("malformed XML (XMLParser error \(code.map(String.init) ?? "unknown"))", at: SourceLocation(file: file, line: parser.lineNumber))
        }
        guard let core = delegate.core else { throw SourceIssue("no <core> element", at: SourceLocation(file: file, line: 1)) }
        return DwCAMeta(core: core, extensions: delegate.extensions)
    }

    /// `http://rs.tdwg.org/dwc/terms/scientificName` → `scientificName`.
    static func lastSegment(_ term: String) -> String {
        let cut = term.lastIndex { $0 == "/" || $0 == "#" || $0 == ":" }
        return cut.map { String(term[term.index(after: $0)...]) } ?? term
    }

    /// The byte of a `fieldsTerminatedBy` / `fieldsEnclosedBy` value: `\t`, `,`, `;`, `|`, ...;
    /// nil for a value that is not one byte.
    static func singleByte(_ text: String) -> UInt8? {
        switch text {
        case "\\t", "\t": return 0x09
        case "\\\\": return 0x5C
        default:
            let bytes = Array(text.utf8)
            return bytes.count == 1 ? bytes[0] : nil
        }
    }
}

/// The SAX side of `DwCAMeta.parse`.
private final class MetaParser: NSObject, XMLParserDelegate {
    var core: DwCAMeta.FileSpec?
    var extensions: [DwCAMeta.FileSpec] = []
    var problem: String?
    var problemLine = 0

    private var spec: DwCAMeta.FileSpec?
    private var isCore = false
    private var inLocation = false
    private var text = ""

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        guard problem == nil else { return }
        func fail(_ message: String) {
            problem = message
            problemLine = parser.lineNumber
            parser.abortParsing()
        }
        switch name {
        case "core", "extension":
            let separatorText = attributes["fieldsTerminatedBy"] ?? ","
            guard let separator = DwCAMeta.singleByte(separatorText) else {
                return fail("unknown delimiter '\(separatorText)' in <\(name)> (expected one character such as \\t , ; |)")
            }
            let quoteText = attributes["fieldsEnclosedBy"] ?? "\""
            var quote: UInt8?
            if !quoteText.isEmpty {
                guard let q = DwCAMeta.singleByte(quoteText), q != separator else {
                    return fail("unknown quote character '\(quoteText)' in <\(name)>")
                }
                quote = q
            }
            let headerText = attributes["ignoreHeaderLines"] ?? "0"
            guard let headerLines = Int(headerText), headerLines >= 0 else {
                return fail("ignoreHeaderLines '\(headerText)' is not a count")
            }
            spec = DwCAMeta.FileSpec(
                rowType: DwCAMeta.lastSegment(attributes["rowType"] ?? ""), location: "",
                encoding: attributes["encoding"] ?? "UTF-8", format: .delimited(separator: separator, quote: quote),
                headerLines: headerLines, idIndex: nil, columns: [:], defaults: [:])
            isCore = name == "core"
        case "location":
            inLocation = true
            text = ""
        case "id", "coreid":
            if let index = attributes["index"] {
                guard let i = Int(index), i >= 0 else { return fail("<\(name)> index '\(index)' is not a column number") }
                spec?.idIndex = i
            }
        case "field":
            guard let term = attributes["term"] else { return fail("<field> without a term") }
            let key = DwCAMeta.lastSegment(term)
            if let index = attributes["index"] {
                guard let i = Int(index), i >= 0 else { return fail("<field> index '\(index)' is not a column number") }
                if spec?.columns[key] == nil { spec?.columns[key] = i }
            } else if let value = attributes["default"] {
                spec?.defaults[key] = value
            }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inLocation { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard problem == nil else { return }
        switch name {
        case "location":
            inLocation = false
            if spec?.location.isEmpty == true { spec?.location = text.trimmingCharacters(in: .whitespacesAndNewlines) }
        case "core", "extension":
            guard let done = spec else { return }
            if isCore {
                if core != nil {
                    problem = "more than one <core>"
                    problemLine = parser.lineNumber
                    parser.abortParsing()
                    return
                }
                core = done
            } else {
                extensions.append(done)
            }
            spec = nil
        default:
            break
        }
    }
}
