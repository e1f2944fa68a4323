import ArgumentParser

/// The completion scripts, as `gqlcache completions SHELL` prints them and
/// completions/ holds them: swift-argument-parser's, generated from the
/// command tree, with the additions below.
enum CompletionScripts {
    static func script(for shell: CompletionShell) -> String {
        let generated = GQLCache.completionScript(for: shell)
        switch shell {
        case .bash: return backupCopies(bash: bash(helpOfCommand(bash: generated)))
        case .fish: return fish(parsedOnce(fish: cacheFirst(fish: helpOfCommand(fish: generated))))
        case .zsh: return backupCopies(zsh: zsh(cacheFirst(zsh: valuesAfterEquals(zsh: helpOfCommand(zsh: generated)))))
        default: return generated
        }
    }

    /// A cache file's `--backup` copies (`cache.sqlite.backup-20261122-120000`,
    /// `…-2`) are cache files too, given to `diff`, `info` or `doctor`: they
    /// are offered where a cache file goes, beside the `.sqlite` files (in
    /// fish, by ``filesByExtension(fish:)``).
    /// The copy's name, and no `.partial` one a copy cut short left (extglob).
    static let backupGlobBash = "*.backup-+([0-9])-+([0-9])?(-+([0-9]))"

    /// The commands `gqlcache help` explains, offered for its argument: the
    /// generated scripts offer nothing after `help`.
    static let helpTopics = GQLCache.commandNames.joined(separator: " ")
}
