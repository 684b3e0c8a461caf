import Foundation
import STOLProtocol
import STOLTestSupport
import Testing
import ZIPFoundation

@testable import STOLEngine

/// Small checklist packages written for one test: a folder of files, or the same files zipped.
struct ChecklistFixture {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    func remove() { directory.remove() }

    /// A folder `name` holding `files`.
    func folder(_ name: String, _ files: [String: String]) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (file, text) in files {
            let target = url.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: target)
        }
        return url
    }

    /// A zip `name` holding `entries` (any names, `../x` included: they are written as given).
    func zip(_ name: String, _ entries: [(String, Data)], compress: Bool = true) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        let archive = try Archive(url: url, accessMode: .create)
        for (path, data) in entries {
            try archive.addEntry(
                with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: compress ? .deflate : .none,
                provider: { position, size in data.subdata(in: Int(position)..<Int(position) + size) })
        }
        return url
    }

    func zip(_ name: String, _ files: [String: String]) throws -> URL {
        try zip(name, files.sorted { $0.key < $1.key }.map { ($0.key, Data($0.value.utf8)) })
    }
}

/// A meta.xml with a Taxon core `taxa.txt` (tab-separated) whose columns are `terms`, in order,
/// plus extensions given as (rowType, file, terms).
func dwcaMeta(
    coreTerms: [String], separator: String = "\\t", quote: String = "", headerLines: Int = 1,
    extensions: [(rowType: String, file: String, terms: [String])] = []
) -> String {
    func fields(_ terms: [String]) -> String {
        terms.enumerated().map { "    <field index=\"\($0.offset)\" term=\"http://rs.tdwg.org/dwc/terms/\($0.element)\"/>" }.joined(separator: "\n")
    }
    var xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <archive xmlns="http://rs.tdwg.org/dwc/text/">
          <core encoding="UTF-8" fieldsTerminatedBy="\(separator)" linesTerminatedBy="\\n" fieldsEnclosedBy="\(quote)" ignoreHeaderLines="\(headerLines)" rowType="http://rs.tdwg.org/dwc/terms/Taxon">
            <files><location>taxa.txt</location></files>
            <id index="0"/>
        \(fields(coreTerms))
          </core>

        """
    for ext in extensions {
        xml += """
              <extension encoding="UTF-8" fieldsTerminatedBy="\\t" linesTerminatedBy="\\n" fieldsEnclosedBy="" ignoreHeaderLines="1" rowType="\(ext.rowType)">
                <files><location>\(ext.file)</location></files>
                <coreid index="0"/>
            \(fields(ext.terms))
              </extension>

            """
    }
    return xml + "</archive>\n"
}

/// Tab-separated lines.
func tsv(_ rows: [[String]]) -> String {
    rows.map { $0.joined(separator: "\t") + "\n" }.joined()
}
