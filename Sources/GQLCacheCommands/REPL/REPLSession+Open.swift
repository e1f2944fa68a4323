import CacheStore

/// `open FILE`: switching to another cache file.
extension REPLSession {
    func open(_ arguments: [String]) -> ExitStatus {
        guard arguments.count == 1, let path = arguments.first, !path.isEmpty else {
            // Most often a file name with a space in it, typed bare.
            context.report(.usage, (arguments.isEmpty || arguments == [""] ? "open takes the cache file to switch to"
                : "open takes one cache file; one with spaces is quoted: open \(ShellWords.quote(arguments.joined(separator: " ")))")
                + (interactive ? stillOn() : stoppingScript()))
            return .usage
        }
        let previous = (cachePath, trail)
        stores.closeAll()
        cachePath = path
        trail = [.queryRoot]
        let previousMove = previousTrail
        previousTrail = nil
        do {
            try start()
            context.note("opened \(path.shownOnLine)")
            return .success
        } catch {
            (cachePath, trail) = previous
            previousTrail = previousMove
            stores.closeAll()
            let status = (error as? CacheStoreError).map(ExitStatus.init(for:)) ?? .io
            context.report(status, "\(error)" + (interactive ? stillOn() : stoppingScript()))
            return status
        }
    }

    /// At the prompt, what a failed `open` message adds: the file the
    /// commands that follow go to.
    private func stillOn() -> String { "; still on \(cachePath.shownOnLine)" }

    /// In a script, what the failed `open` message adds, and the stop.
    private func stoppingScript() -> String {
        guard !interactive else { return "" }
        scriptStoppedByFailedOpen = true
        return "; the script stops here, so that no command meant for that file runs on \(cachePath.shownOnLine)"
    }
}
