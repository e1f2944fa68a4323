import ArgumentParser

// The command-line conventions every command follows. A new command adopts
// them with one line each, and the runner (Conventions.swift) applies them to
// the CommandContext before `run(in:)`, so the command itself does nothing:
//
//     @OptionGroup var display: DisplayOptions   // --color, --quiet: every command
//     @OptionGroup var pager: PagerOptions       // --no-pager: commands whose text output can be long
//
// Then render with `context.style` (colour), print summaries with
// `context.note(_:)` (dropped by --quiet), and wrap a transaction that scans
// the whole file in `context.withProgress(_:scans:)` (see ProgressIndicator.swift).

/// When text output is coloured.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
    case auto, always, never
}

/// `--color` and `--quiet`, on every command.
struct DisplayOptions: ParsableArguments {
    static let colorHelp = ArgumentHelp(
        "Colour text output: auto (only on a terminal, not with NO_COLOR set or TERM=dumb), always or never.", valueName: "when")

    @Option(help: colorHelp)
    var color: ColorChoice?

    @Flag(name: .shortAndLong, help: "Print only the data asked for and errors: no summaries such as 'removed 3 records'.")
    var quiet = false
}

/// ``DisplayOptions`` for grep, whose `--quiet` is grep's: nothing is
/// printed, and the status says whether anything matched.
struct GrepDisplayOptions: ParsableArguments {
    @Option(help: DisplayOptions.colorHelp)
    var color: ColorChoice?

    @Flag(name: .shortAndLong, help: "Print nothing but errors, and stop at the first match: the status says whether anything matched.")
    var quiet = false

    var conventions: DisplayOptions {
        var options = DisplayOptions()
        options.color = color
        options.quiet = quiet
        return options
    }
}

/// `--no-pager`, on commands whose text output can run long.
struct PagerOptions: ParsableArguments {
    @Flag(help: "Do not page long text output through $PAGER (default 'less -FRX') on a terminal.")
    var noPager = false
}
