import ArgumentParser

extension GQLCache {
    /// `gqlcache completions SHELL`: the completion script to install.
    struct Completions: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "completions",
            _superCommandName: GQLCache.superCommandName,
            abstract: "Print the completion script for bash, zsh or fish.",
            discussion: """
                Completes commands, options, file names, cache keys and (for --type) __typenames from \
                the cache file named on the command line, and operation and fragment names from the --document, --text and \
                --apollo-config files named there. Install with: \
                gqlcache completions bash > ~/.local/share/bash-completion/completions/gqlcache (where the \
                bash-completion package looks; without it, put 'source <(gqlcache completions bash)' in ~/.bashrc); \
                gqlcache completions zsh > ~/.zfunc/_gqlcache (with fpath=(~/.zfunc $fpath) before compinit in \
                ~/.zshrc); gqlcache completions fish > ~/.config/fish/completions/gqlcache.fish. \
                'make install' puts all three under PREFIX/share, and says which shell does not look there (fish \
                looks under /usr/local/share only when XDG_DATA_DIRS names it).
                """)

        enum Shell: String, ExpressibleByArgument, CaseIterable {
            case bash, zsh, fish
        }

        @Argument(help: "The shell: bash, zsh or fish.")
        var shell: Shell

        @OptionGroup var display: DisplayOptions

        func run(in context: CommandContext) throws {
            let shell: CompletionShell = switch self.shell {
            case .bash: .bash
            case .zsh: .zsh
            case .fish: .fish
            }
            let script = CompletionScripts.script(for: shell)
            context.stdout.write(script.hasSuffix("\n") ? script : script + "\n")
        }
    }
}
