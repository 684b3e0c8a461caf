import ArgumentParser
import Logging

/// Options every subcommand shares.
struct CommonOptions: ParsableArguments {
    @Option(help: "Log level on stderr: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    /// Sends every log line to stderr at the chosen level and returns the root logger.
    func bootstrapLogging() -> Logger {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "stol-engine")
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
