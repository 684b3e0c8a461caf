import Foundation
import STOLRPC

/// `diagnostics/setEnabled`, `diagnostics/status`, `diagnostics/export`, `diagnostics/delete`.
enum DiagnosticsMethods {
    struct SetEnabledParams: Decodable, Sendable {
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

    static func register(in table: inout MethodTable, engine: Engine) {
        let log = engine.diagnostics
        let settings = ReferenceSettings(dataDirectory: engine.configuration.dataDirectory)
        table.on("diagnostics/setEnabled", ordered: true) { (p: SetEnabledParams, _) in
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
        table.on("diagnostics/status") { (_: NoParams, _) in
            try await status(engine)
        }
        table.on("diagnostics/export") { (_: NoParams, _) in
            ["text": try await DiagnosticsExport.make(engine: engine)]
        }
        table.on("diagnostics/delete", ordered: true) { (_: NoParams, _) in
            do {
                try await OffPool.run { try log.delete() }
            } catch {
                throw RPCError.kind(ErrorCode.notPossible, "diagnosticsUndeletable", "cannot delete the diagnostics files", ["detail": .string(Redactor(dataDirectory: engine.configuration.dataDirectory).scrub("\(error)"))])
            }
            return try await status(engine)
        }
    }
}
