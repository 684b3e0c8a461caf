import Foundation
import STOLProtocol

extension AboutInfo {
    /// What the About screen shows for `database`.
    init(database: TaxonomyDatabase) {
        let info = database.datasetInfo
        self.init(
            engine: Engine(name: EngineInfo.name, version: EngineInfo.version, build: EngineInfo.build),
            protocolVersion: EngineInfo.protocolVersion,
            dataset: Dataset(source: database.source, name: info["name"], version: info["version"], license: info["license"],
                             buildDate: info["build_date"], description: info["description"], taxaCount: database.taxaCount),
            sources: Self.sources(attribution: info["attribution"] ?? ""),
            sourceFiles: (info["source_files"] ?? "").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty },
            privacy: Self.privacyStatement)
    }

    /// `build-db` joins each source's credit with newlines; each line is one source.
    static func sources(attribution: String) -> [DataSource] {
        attribution.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.map { line in
            let license = Self.license(in: line)
            let required = license.map { $0.uppercased().hasPrefix("CC BY") || $0.uppercased().hasPrefix("CC-BY") } ?? false
            return DataSource(attribution: line, license: license, attributionRequired: required)
        }
    }

    /// The first licence name in `text`: `CC BY 4.0`, `CC BY-SA 3.0`, `CC0 1.0`, `public domain`.
    public static func license(in text: String) -> String? {
        let patterns = [#"CC[ -]BY(-[A-Z]{2})*( \d\.\d)?"#, #"CC0( \d\.\d)?"#, #"[Pp]ublic domain"#]
        for pattern in patterns {
            if let range = text.range(of: pattern, options: .regularExpression) { return String(text[range]) }
        }
        return nil
    }
}
