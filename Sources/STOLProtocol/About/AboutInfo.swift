/// What the About screen shows: versions, the active dataset, its sources and the privacy promise.
public struct AboutInfo: Codable, Hashable, Sendable {
    /// What `privacy` says.
    public static let privacyStatement = "No data is collected. Nothing leaves this device."

    public struct Engine: Codable, Hashable, Sendable {
        public var name: String
        public var version: String
        public var build: String

        public init(name: String, version: String, build: String) {
            self.name = name
            self.version = version
            self.build = build
        }
    }

    public struct Dataset: Codable, Hashable, Sendable {
        public var source: DatabaseSource
        public var name: String?
        public var version: String?
        public var license: String?
        public var buildDate: String?
        public var description: String?
        public var taxaCount: Int

        public init(
            source: DatabaseSource, name: String? = nil, version: String? = nil, license: String? = nil, buildDate: String? = nil,
            description: String? = nil, taxaCount: Int
        ) {
            self.source = source
            self.name = name
            self.version = version
            self.license = license
            self.buildDate = buildDate
            self.description = description
            self.taxaCount = taxaCount
        }
    }

    /// One credited data source: a line of the dataset's `attribution`.
    public struct DataSource: Codable, Hashable, Sendable {
        public var attribution: String
        /// The licence named in the credit, when it names one (e.g. `CC BY 4.0`).
        public var license: String?
        /// True for licences that oblige us to show the credit (CC BY and its variants).
        public var attributionRequired: Bool

        public init(attribution: String, license: String?, attributionRequired: Bool) {
            self.attribution = attribution
            self.license = license
            self.attributionRequired = attributionRequired
        }
    }

    public var engine: Engine
    public var protocolVersion: String
    public var dataset: Dataset
    public var sources: [DataSource]
    public var sourceFiles: [String]
    public var privacy: String

    public init(engine: Engine, protocolVersion: String, dataset: Dataset, sources: [DataSource], sourceFiles: [String], privacy: String) {
        self.engine = engine
        self.protocolVersion = protocolVersion
        self.dataset = dataset
        self.sources = sources
        self.sourceFiles = sourceFiles
        self.privacy = privacy
    }
}

/// `about`: the engine, the active dataset's license and attribution, and the privacy promise.
public struct AboutRequest: RPCRequest, Hashable {
    public typealias Response = AboutInfo
    public static let method = "about"
    public init() {}
}
