import ArgumentParser

/// Applies a parsed command's ``DisplayOptions`` and ``PagerOptions`` to the
/// context it runs in, so commands only declare the option groups. The
/// groups are found by looking at the command's stored properties.
enum Conventions {
    /// True when the command has `--busy-timeout` (it writes).
    static func takesBusyTimeout(_ command: ParsableCommand) -> Bool {
        Mirror(reflecting: command).children.contains { $0.value is OptionGroup<WriteOptions> || $0.value is OptionGroup<ReadOptions> }
    }

    /// The convention groups a command has, found among its stored
    /// properties. (A command that runs in loops names them itself, as
    /// ``ContextCommand/conventionOptions``: reflection costs time at start.)
    static func options(of command: ParsableCommand) -> ConventionOptions {
        let groups = Mirror(reflecting: command).children.map(\.value)
        return ConventionOptions(
            display: groups.lazy.compactMap {
                ($0 as? OptionGroup<DisplayOptions>)?.wrappedValue ?? ($0 as? OptionGroup<GrepDisplayOptions>)?.wrappedValue.conventions
            }.first,
            pager: groups.lazy.compactMap { ($0 as? OptionGroup<PagerOptions>)?.wrappedValue }.first,
            format: groups.lazy.compactMap { ($0 as? OptionGroup<OutputOptions>)?.wrappedValue.format }.first ?? .text)
    }

    /// Sets colour and quietness on `context`, and starts the pager when
    /// the command pages and its text goes to a terminal. Returns the pager
    /// to finish once the command is done.
    static func apply(_ options: ConventionOptions, context: CommandContext) -> Pager? {
        if let display = options.display {
            if let color = display.color { context.colorChoice = color }
            if display.quiet { context.isQuiet = true }
        }
        guard let pager = options.pager, !pager.noPager, context.allowsPaging, context.stdoutIsTerminal,
            options.format == .text, let command = Pager.command(environment: context.environment)
        else { return nil }
        if let program = Pager.missingProgram(in: command, environment: context.environment) {
            // As git does: the text still reaches the terminal, without the
            // pager; a PAGER the user set is worth a word, a missing less is not.
            if context.environment["PAGER"] != nil {
                context.warn("the pager '\(program)' (PAGER) was not found; printing without it")
            }
            return nil
        }
        guard let started = Pager.start(command, environment: context.environment) else { return nil }
        context.stdout.flush()
        context.stdout = started.sink
        return started
    }
}

/// A command's groups of the conventions: nil for a group it does not have.
struct ConventionOptions {
    var display: DisplayOptions?
    var pager: PagerOptions?
    /// --format, which decides whether the text would be paged.
    var format: OutputFormat
}
