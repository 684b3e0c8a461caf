import Foundation
import STOLRPC
import STOLJSON
import STOLSupport

/// `diagnostics/setEnabled`, `diagnostics/status`, `diagnostics/export`, `diagnostics/delete`.
enum DiagnosticsMethods {
    struct SetEnabledParams: Codable, Sendable {
        var enabled: Bool
    }

    struct Status: Encodable, Sendable {
        var enabled: Bool
        var bytes: Int64
    }

    static func status(_ engine: Engine) async throws -> Status {
        let log = engine.diagnostics
        return Status(enabled: log.isEnabled, bytes: try await OffPool.run { log.bytes() })
    }

    /// `{"text": "..."}`.
    struct ExportText: Encodable, Sendable {
        var text: String
    }

    /// The diagnostics switch and files, for ordering.
    static let resource = "diagnostics"

    /// `diagnostics/setEnabled`: turns the local diagnostics log on or off, and remembers it.
    enum SetEnabled: RPCMethod {
        typealias Params = SetEnabledParams
        typealias Result = Status
        static let name = "diagnostics/setEnabled"
        static let ordering = MethodOrdering.writes(resource)
    }

    /// `diagnostics/status`: whether the log is on, and its size.
    enum StatusOfDiagnostics: RPCMethod {
        typealias Result = Status
        static let name = "diagnostics/status"
        static let ordering = MethodOrdering.reads(resource)
    }

    /// `diagnostics/export`: the log as redacted text, for the user to read and share.
    enum Export: RPCMethod {
        typealias Result = ExportText
        static let name = "diagnostics/export"
        static let ordering = MethodOrdering.reads(resource)
    }

    /// `diagnostics/delete`: deletes every diagnostics file.
    enum Delete: RPCMethod {
        typealias Result = Status
        static let name = "diagnostics/delete"
        static let ordering = MethodOrdering.writes(resource)
    }

    static func register(in table: inout MethodTable, engine: Engine) {
        let log = engine.diagnostics
        let settings = EngineSettings(dataDirectory: engine.configuration.dataDirectory)
        table.on(SetEnabled.self) { p, _ in
            do {
                try await OffPool.run { try settings.setDiagnosticsEnabled(p.enabled) }
            } catch {
                throw RPCError.kind(ErrorCode.notPossible, "settingsUnwritable", "cannot save the setting", ["detail": .string("\(error)")])
            }
            if p.enabled {
                log.setEnabled(true)
                engine.logger.info("diagnostics log enabled")
            } else {
                engine.logger.info("diagnostics log disabled")
                log.setEnabled(false)
            }
            return try await status(engine)
        }
        table.on(StatusOfDiagnostics.self) { _, _ in
            await engine.catchUpWithDataDirectory()
            return try await status(engine)
        }
        table.on(Export.self) { _, _ in
            ExportText(text: try await DiagnosticsExport.make(engine: engine))
        }
        table.on(Delete.self) { _, _ in
            do {
                try await OffPool.run { try log.delete() }
            } catch {
                throw RPCError.kind(ErrorCode.notPossible, "diagnosticsUndeletable", "cannot delete the diagnostics files", ["detail": .string(Redactor(dataDirectory: engine.configuration.dataDirectory).scrub("\(error)"))])
            }
            return try await status(engine)
        }
    }
}
