import ArgumentParser

/// A command that runs against an injected ``CommandContext``.
protocol ContextCommand: ParsableCommand {
    func run(in context: CommandContext) throws
    /// The command's ``DisplayOptions``, ``PagerOptions`` and format, for
    /// the runner to apply. By default found by reflection.
    var conventionOptions: ConventionOptions { get }
}

extension ContextCommand {
    var conventionOptions: ConventionOptions { Conventions.options(of: self) }

    /// Only reached when a command is run outside ``GQLCacheMain``.
    mutating func run() throws {
        let context = CommandContext.standard()
        try run(in: context)
        context.stdout.flush()
    }
}
