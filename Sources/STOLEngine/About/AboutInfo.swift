import Foundation

/// What the About screen shows: versions, the active dataset, its sources and the privacy promise.
public struct AboutInfo: Encodable, Sendable {
    public static let privacyStatement = "No data is collected. Nothing leaves this device."

    public struct Engine: Encodable, Sendable {
        public var name: String
        public var version: String
        public var build: String
    }

    public struct Dataset: Encodable, Sendable {
        public var source: TaxonomyDatabase.Source
        public var name: String?
        public var version: String?
        public var license: String?
        public var buildDate: String?
        public var description: String?
        public var taxaCount: Int
    }

    /// One credited data source: a line of the dataset's `attribution`.
    public struct DataSource: Encodable, Sendable {
        public var attribution: String
        /// The licence named in the credit, when it names one (e.g. `CC BY 4.0`).
        public var license: String?
        /// True for licences that oblige us to show the credit (CC BY and its variants).
        public var attributionRequired: Bool
    }

    public var engine: Engine
    public var protocolVersion: String
    public var dataset: Dataset
    public var sources: [DataSource]
    public var sourceFiles: [String]
    public var privacy: String

    public init(database: TaxonomyDatabase) {
        let info = database.datasetInfo
        engine = Engine(name: EngineInfo.name, version: EngineInfo.version, build: EngineInfo.build)
        protocolVersion = EngineInfo.protocolVersion
        dataset = Dataset(source: database.source, name: info["name"], version: info["version"], license: info["license"],
                          buildDate: info["build_date"], description: info["description"], taxaCount: database.taxaCount)
        sources = Self.sources(attribution: info["attribution"] ?? "")
        sourceFiles = (info["source_files"] ?? "").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        privacy = Self.privacyStatement
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
