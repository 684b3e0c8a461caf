import Foundation
import STOLProtocol
import STOLSupport

/// Handles import and validation of a reference database file (the specification's §10.5).
///
/// Differences from the specification: `progress` gives every import's steps as the engine
/// reports them (each access is a stream of its own); errors are `ImportError`, whose `other`
/// case carries any other engine error, and a cancelled import throws `ImportError.cancelled`.
public protocol ImportService: AnyObject, Sendable {
    /// Verifies and installs a signed `.stol` file, then makes it the active database.
    func importReferenceDB(from url: URL) async throws
    /// Stops the import in progress, leaving everything as it was.
    func cancelImport() async
    /// The progress of imports from now on.
    var progress: AsyncStream<ImportProgress> { get }
}

/// How far an import has come.
public struct ImportProgress: Sendable, Hashable {
    public typealias Stage = ImportStep.Stage

    public let stage: Stage
    /// 0…1, never going backwards.
    public let fractionCompleted: Double
    /// The step within the stage, as the engine named it.
    public let step: ImportStep?

    public init(stage: Stage, fractionCompleted: Double, step: ImportStep? = nil) {
        self.stage = stage
        self.fractionCompleted = fractionCompleted
        self.step = step
    }
}

/// Why an import failed, as the specification names it; `other` is any other engine error.
public enum ImportError: Error, Sendable, Hashable {
    case fileTooLarge(bytes: Int64)
    case checksumMismatch
    case signatureInvalid
    case incompatibleSchema(found: Int, expected: Int)
    case databaseCorrupt(detail: String)
    case importAlreadyInProgress
    case cancelled
    case other(RPCError)

    /// The specification's error for what the engine answered.
    public init(_ error: RPCError) {
        let number = { (key: String) in error.data?[key]?.int64Value }
        switch error.kind {
        case .fileTooLarge?: self = .fileTooLarge(bytes: number("size") ?? 0)
        case .checksumMismatch?: self = .checksumMismatch
        case .signatureInvalid?: self = .signatureInvalid
        case .incompatibleSchema?: self = .incompatibleSchema(found: Int(number("found") ?? 0), expected: Int(number("expected") ?? 0))
        case .databaseCorrupt?: self = .databaseCorrupt(detail: error.detail ?? error.message)
        case .importAlreadyInProgress?: self = .importAlreadyInProgress
        case .cancelled?: self = .cancelled
        default: self = .other(error)
        }
    }
}

/// `ImportService` over the engine's `database/import` (with progress) and `database/cancelImport`.
public final class EngineImportService: ImportService {
    public let client: STOLClient
    private let listeners = Locked<[UUID: AsyncStream<ImportProgress>.Continuation]>([:])

    public init(client: STOLClient) {
        self.client = client
    }

    public func importReferenceDB(from url: URL) async throws {
        // A message this client does not know (a newer engine's step) keeps the stage before it.
        let stage = Locked(ImportProgress.Stage.copying)
        do {
            _ = try await client.send(DatabaseImportRequest(path: url.path)) { [weak self] report in
                guard report.kind == .report, let fraction = report.fraction else { return }
                let step = report.message.flatMap(ImportStep.init(message:))
                let current = stage.withLock { known in
                    if let step { known = step.stage }
                    return known
                }
                self?.publish(ImportProgress(stage: current, fractionCompleted: fraction, step: step))
            }
        } catch let error as RPCError {
            throw ImportError(error)
        }
    }

    public func cancelImport() async {
        _ = try? await client.send(DatabaseCancelImportRequest())
    }

    public var progress: AsyncStream<ImportProgress> {
        AsyncStream { continuation in
            let key = UUID()
            listeners.withLock { $0[key] = continuation }
            continuation.onTermination = { [weak self] _ in self?.listeners.withLock { _ = $0.removeValue(forKey: key) } }
        }
    }

    private func publish(_ progress: ImportProgress) {
        for continuation in listeners.withLock({ Array($0.values) }) { continuation.yield(progress) }
    }
}
