import Foundation
import STOLProtocol
import STOLRPC
import STOLSupport

/// `diagnostics/setEnabled`, `diagnostics/status`, `diagnostics/export`, `diagnostics/delete`.
enum DiagnosticsMethods {
    static func status(_ engine: Engine) async throws -> DiagnosticsStatus {
        let log = engine.diagnostics
        return DiagnosticsStatus(enabled: log.isEnabled, bytes: try await OffPool.run { log.bytes() })
    }

    static func register(in table: inout MethodTable, engine: Engine) {
        let log = engine.diagnostics
        let settings = EngineSettings(dataDirectory: engine.configuration.dataDirectory)
        table.on(DiagnosticsSetEnabledRequest.self) { p, _ in
            do {
                try await OffPool.run { try settings.setDiagnosticsEnabled(p.enabled) }
            } catch {
                throw RPCError.kind(ErrorCode.notPossible, .settingsUnwritable, "cannot save the setting", ["detail": .string("\(error)")])
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
        table.on(DiagnosticsStatusRequest.self) { _, _ in
            await engine.catchUpWithDataDirectory()
            return try await status(engine)
        }
        table.on(DiagnosticsExportRequest.self) { _, _ in
            ExportedText(text: try await DiagnosticsExport.make(engine: engine))
        }
        table.on(DiagnosticsDeleteRequest.self) { _, _ in
            do {
                try await OffPool.run { try log.delete() }
            } catch {
                throw RPCError.kind(ErrorCode.notPossible, .diagnosticsUndeletable, "cannot delete the diagnostics files", ["detail": .string(Redactor(dataDirectory: engine.configuration.dataDirectory).scrub("\(error)"))])
            }
            return try await status(engine)
        }
    }
}
