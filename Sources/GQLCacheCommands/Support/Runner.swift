import ArgumentParser
import CacheStore

/// A command that runs against an injected ``CommandContext``.
protocol ContextCommand: ParsableCommand {
    func run(in context: CommandContext) throws
}

extension ContextCommand {
    /// Only reached when a command is run outside ``GQLCacheMain``.
    mutating func run() throws {
        let context = CommandContext.standard()
        try run(in: context)
        context.stdout.flush()
    }
}

/// Parses arguments, runs the command and turns every outcome into text on
/// the context's streams and an exit status. The executable and the tests
/// both come through here.
public enum GQLCacheMain {
    public static func run(arguments: [String], context: CommandContext) -> ExitStatus {
        defer {
            context.stdout.flush()
            context.stderr.flush()
        }
        let command: ParsableCommand
        do {
            command = try GQLCache.parseAsRoot(arguments)
        } catch {
            return reportParseError(error, context: context)
        }
        do {
            if let command = command as? ContextCommand {
                try command.run(in: context)
            } else {
                var command = command
                try command.run()
            }
            return context.status
        } catch let failure as CommandFailure {
            if !failure.message.isEmpty { context.report(failure.status, failure.message) }
            return failure.status
        } catch let error as CacheStoreError {
            let status = ExitStatus(for: error)
            context.report(status, error.description)
            return status
        } catch {
            return reportParseError(error, context: context)
        }
    }

    private static func reportParseError(_ error: Error, context: CommandContext) -> ExitStatus {
        let message = GQLCache.fullMessage(for: error)
        let code = GQLCache.exitCode(for: error)
        if code == .success {
            if !message.isEmpty { context.stdout.write(message + "\n") }
            return .success
        }
        context.stderr.write(message + "\n")
        return .usage
    }
}
