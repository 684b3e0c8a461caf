import Foundation
import STOLEngine
import STOLProtocol

/// Reads the project's own plain-text `.taxa` format (see dataset/FORMAT.md).
public struct TaxaSourceParser {
    public init() {}

    /// Parses every `*.taxa` file of `directory`, in file-name order.
    public func parse(directory: URL) throws -> ImportResult {
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "taxa" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        var result = ImportResult()
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let part = parse(text, file: file.lastPathComponent)
            result.taxa += part.taxa
            result.skipped += part.skipped
            result.rowsRead += part.rowsRead
            result.sourceFiles.append(file.lastPathComponent)
        }
        return result
    }

    /// Parses one file's text; `file` names it in messages.
    public func parse(_ text: String, file: String) -> ImportResult {
        var result = ImportResult()
        // Open lineage: (rank, key, kingdom name, index in result.taxa)
        var stack: [(rank: Rank, key: String, kingdom: String?, index: Int)] = []
        var current: Int? = nil
        var namedLanguages: Set<String> = []
        var lineNumber = 0
        text.enumerateLines { rawLine, _ in
            lineNumber += 1
            let location = SourceLocation(file: file, line: lineNumber)
            /// A line left out; `rows: 0` for a line kept despite it.
            func issue(_ message: String, rows: Int = 1) { result.skipped.append(SourceIssue(message, at: location, rows: rows)) }
            let line = rawLine.hasSuffix("\r") ? String(rawLine.dropLast()) : rawLine
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { return }
            result.rowsRead += 1

            if !line.hasPrefix(" ") {
                // A taxon line: "<rank> <Scientific name>"
                let parts = trimmed.split(separator: " ", maxSplits: 1).map(String.init)
                guard parts.count == 2, let rank = Rank(rawValue: parts[0]) else {
                    issue("expected '<rank> <name>' with a rank of \(Rank.allCases.map(\.rawValue).joined(separator: ", "))")
                    current = nil
                    return
                }
                let name = parts[1].trimmingCharacters(in: .whitespaces)
                while let top = stack.last, top.rank >= rank { stack.removeLast() }
                let parent = stack.last
                let kingdom: String? = rank <= .kingdom ? nil : parent?.kingdom
                if rank == .species, let genus = stack.last(where: { $0.rank == .genus }),
                    !name.hasPrefix(result.taxa[genus.index].scientificName + " ")
                {
                    issue("species \(name) does not start with its genus \(result.taxa[genus.index].scientificName)", rows: 0)
                }
                let key = SourceTaxon.key(kingdom: kingdom, rank: rank, name: name)
                var taxon = SourceTaxon(key: key, parentKey: parent?.key, rank: rank, scientificName: name)
                taxon.origin = location
                result.taxa.append(taxon)
                let index = result.taxa.count - 1
                let ownKingdom = rank == .kingdom ? name : kingdom
                stack.append((rank, key, ownKingdom, index))
                current = index
                namedLanguages = []
                return
            }

            guard line.hasPrefix("  "), !line.hasPrefix("   ") else {
                issue("attribute lines are indented by exactly two spaces")
                return
            }
            guard let index = current else {
                issue("attribute line without a taxon line above it")
                return
            }
            let parts = trimmed.split(separator: " ", maxSplits: 1).map(String.init)
            let key = parts[0]
            let value = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            guard !value.isEmpty else {
                issue("\(key) needs a value")
                return
            }
            switch key {
            case "author":
                result.taxa[index].author = value
            case "year":
                guard let year = Int(value), (1700...2100).contains(year) else { issue("year must be a four-digit year"); return }
                result.taxa[index].year = year
            case "iucn":
                guard let status = ConservationStatus(rawValue: value) else {
                    issue("iucn must be one of \(ConservationStatus.allCases.map(\.rawValue).joined(separator: " "))")
                    return
                }
                result.taxa[index].conservation = status
            case "status":
                guard let status = TaxonStatus(rawValue: value) else { issue("status must be accepted, synonym or doubtful"); return }
                result.taxa[index].status = status
            case "name":
                let nameParts = value.split(separator: " ", maxSplits: 1).map(String.init)
                guard nameParts.count == 2, BCP47.isLanguageTag(nameParts[0]) else {
                    issue("expected 'name <language> <common name>'")
                    return
                }
                let lang = nameParts[0]
                let preferred = namedLanguages.insert(lang).inserted
                result.taxa[index].names.append(SourceName(nameParts[1], lang: lang, type: .common, isPreferred: preferred))
            case "synonym":
                result.taxa[index].names.append(SourceName(value, lang: "la", type: .synonym))
            case "trait":
                guard let colon = value.firstIndex(of: ":") else { issue("expected 'trait <key>: <value>'"); return }
                let traitKey = value[..<colon].trimmingCharacters(in: .whitespaces)
                let traitValue = value[value.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                guard !traitKey.isEmpty, !traitValue.isEmpty else { issue("expected 'trait <key>: <value>'"); return }
                result.taxa[index].traits.append(SourceTrait(traitKey, traitValue))
            case "ref":
                result.taxa[index].references.append(SourceReference(value))
            default:
                issue("unknown attribute '\(key)'")
            }
        }
        return result
    }
}
