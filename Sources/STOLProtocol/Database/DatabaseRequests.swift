/// `database/info`: the active database, its dataset, and recoveries found at start-up.
public struct DatabaseInfoRequest: RPCRequest, Hashable {
    public typealias Response = DatabaseInfo
    public static let method = "database/info"
    public init() {}
}

/// `database/languages`: the languages of the active database's common names, with counts.
public struct DatabaseLanguagesRequest: RPCRequest, Hashable {
    public typealias Response = DatabaseLanguages
    public static let method = "database/languages"
    public init() {}
}

/// `database/import`: verifies and installs a signed `.stol` file, with progress (its messages
/// are `ImportStep`s), and switches to it.
///
/// Not ordered: an import may take minutes and must not hold up other state changes; the
/// engine allows one import at a time and refuses switches meanwhile.
public struct DatabaseImportRequest: RPCRequest, Hashable {
    public typealias Response = DatabaseInfo
    public static let method = "database/import"

    /// The `.stol` file's absolute path.
    public var path: String

    public init(path: String) {
        self.path = path
    }
}

/// `database/cancelImport`: stops the import in progress, leaving everything as it was.
public struct DatabaseCancelImportRequest: RPCRequest, Hashable {
    public typealias Response = ImportCancellation
    public static let method = "database/cancelImport"
    public init() {}
}

/// `database/activateReference`: switches to the installed reference database.
public struct ActivateReferenceRequest: RPCRequest, Hashable {
    public typealias Response = DatabaseSwitch
    public static let method = "database/activateReference"
    public static let ordering = MethodOrdering.writes(OrderedResource.activeDatabase)
    public init() {}
}

/// `database/deactivateReference`: switches back to the bundled database, optionally deleting
/// the reference one.
public struct DeactivateReferenceRequest: RPCRequest, Hashable {
    public typealias Response = DatabaseSwitch
    public static let method = "database/deactivateReference"
    public static let ordering = MethodOrdering.writes(OrderedResource.activeDatabase)

    public var delete: Bool?

    public init(delete: Bool? = nil) {
        self.delete = delete
    }
}

/// `database/didSwitch`: the active database changed (an import, a switch, or another engine
/// on the same data directory).
public struct DatabaseDidSwitchNotification: RPCNotification, Hashable {
    public static let method = "database/didSwitch"

    public var source: DatabaseSource
    public var schemaVersion: Int
    public var taxaCount: Int

    public init(source: DatabaseSource, schemaVersion: Int, taxaCount: Int) {
        self.source = source
        self.schemaVersion = schemaVersion
        self.taxaCount = taxaCount
    }
}

/// `database/languages`' answer.
public struct DatabaseLanguages: Codable, Hashable, Sendable {
    public var languages: [DatabaseLanguage]

    public init(languages: [DatabaseLanguage]) {
        self.languages = languages
    }
}

/// What a switch of the active database answers.
public struct DatabaseSwitch: Codable, Hashable, Sendable {
    public var source: DatabaseSource
    public var schemaVersion: Int
    public var taxaCount: Int
    public var isReferenceActive: Bool
    /// Whether a reference database is installed (after a deactivation that deleted it, false).
    public var referenceAvailable: Bool

    public init(source: DatabaseSource, schemaVersion: Int, taxaCount: Int, isReferenceActive: Bool, referenceAvailable: Bool) {
        self.source = source
        self.schemaVersion = schemaVersion
        self.taxaCount = taxaCount
        self.isReferenceActive = isReferenceActive
        self.referenceAvailable = referenceAvailable
    }
}
