/// The steps of an import (`database/import`, `media/import`), as the messages of its progress
/// reports say them, in order. The engine reports with these words and a client reads them
/// back; `stage` groups them into the stages the specification's `ImportProgress` names.
public enum ImportStep: String, Codable, Hashable, Sendable, CaseIterable {
    case copying = "copying"
    case checkingSize = "checking size"
    case checkingHeader = "checking header"
    case verifyingChecksum = "verifying checksum"
    case verifyingSignature = "verifying signature"
    case decompressing = "decompressing"
    case openingDatabase = "opening database"
    case checkingSchemaVersion = "checking schema version"
    case checkingIntegrity = "checking integrity"
    case verified = "verified"
    /// Followed by the index being built: `building extensions: search`.
    case buildingExtensions = "building extensions"
    /// Planner statistics replaced by `ANALYZE`'s (unless the file's are exactly those).
    case computingStatistics = "computing statistics"
    case installing = "installing"
    case activating = "activating"
    case done = "done"

    /// The step a progress message names (`building extensions: search` is `buildingExtensions`).
    public init?(message: String) {
        if let step = ImportStep(rawValue: message) {
            self = step
        } else if message.hasPrefix(ImportStep.buildingExtensions.rawValue + ":") {
            self = .buildingExtensions
        } else {
            return nil
        }
    }

    /// The stages of the specification's `ImportProgress.Stage`.
    public enum Stage: String, Codable, Hashable, Sendable, CaseIterable {
        case copying, verifyingChecksum, verifyingSignature, openingDatabase, runningIntegrityCheck, finalizing
    }

    /// The stage this step belongs to.
    public var stage: Stage {
        switch self {
        case .copying: .copying
        case .checkingSize, .checkingHeader, .verifyingChecksum: .verifyingChecksum
        case .verifyingSignature: .verifyingSignature
        case .decompressing, .openingDatabase, .checkingSchemaVersion: .openingDatabase
        case .checkingIntegrity, .verified: .runningIntegrityCheck
        case .buildingExtensions, .computingStatistics, .installing, .activating, .done: .finalizing
        }
    }
}
