import ArgumentParser
import Logging
import STOLEngine

/// Options every subcommand shares.
struct CommonOptions: ParsableArguments {
    @Option(help: "Log level on stderr: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    /// Sends every log line to stderr at the chosen level (and, with `diagnostics`, `info` and
    /// above to the diagnostics file while it is enabled) and returns the root logger.
    func bootstrapLogging(diagnostics: DiagnosticsLog? = nil) -> Logger {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            guard let diagnostics else { return handler }
            return MultiplexLogHandler([handler, DiagnosticsLogHandler(label: label, sink: diagnostics)])
        }
        return Logger(label: "stol-engine")
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
