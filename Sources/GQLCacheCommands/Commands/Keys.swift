import ArgumentParser
import CacheStore

extension GQLCache {
    /// `gqlcache keys CACHE [PATTERN]`: list keys, streaming.
    struct Keys: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "keys",
            _superCommandName: GQLCache.superCommandName,
            abstract: "List record keys, optionally filtered by a pattern and a __typename.",
            discussion: """
                Keys are listed in byte order, one per line, as they are read: memory does not grow \
                with the file. A key that is empty, holds a control character, a character that moves the text around it (a line \
                separator, a bidirectional control such as U+202E) or one that shows nothing (a zero-width space), begins or \
                ends with a space, or begins with " is \
                shown JSON-quoted, as git quotes such paths; --format jsonl gives every key exactly. \
                Pattern modes: \(KeyPattern.Mode.helpText).
                """)

        @OptionGroup var file: CacheFileArgument

        @Argument(help: "Only keys matching this pattern (see --mode). Without it, every key.")
        var pattern: String?

        @Option(help: "How PATTERN matches: apollo (default), literal, prefix, glob or regex.")
        var mode: KeyPattern.Mode?

        @Option(
            name: .customLong("type"), help: ArgumentHelp("Only records whose __typename is this; repeat for several.", valueName: "typename"),
            completion: .custom(ShellCompletion.typenames))
        var typenames: [String] = []

        @Option(parsing: .unconditional, help: ArgumentHelp("List at most this many keys.", valueName: "n"))
        var limit: Int?

        @Flag(help: "Print only how many keys match.")
        var count = false

        @Flag(
            name: [.customShort("z"), .customShort("Z"), .customLong("null")],
            help: "End each key with a NUL, not a newline, and never quote it: for xargs -0 (as git's -z, find's -print0).")
        var null = false

        @OptionGroup var output: OutputOptions
        @OptionGroup var reading: ReadOptions
        @OptionGroup var display: DisplayOptions
        @OptionGroup var pager: PagerOptions

        var conventionOptions: ConventionOptions { ConventionOptions(display: display, pager: pager, format: output.format) }

        func validate() throws {
            if let limit, limit < 0 { throw ValidationError("--limit must be zero or more") }
            if mode != nil && pattern == nil { throw ValidationError("--mode goes with a PATTERN") }
            if typenames.contains("") { throw ValidationError("--type needs a type name") }
            try NullTerminated.check(null, format: output.format, count: count)
        }

        func run(in context: CommandContext) throws {
            let keyPattern = try pattern.map { try KeyPattern($0, mode: mode ?? .apollo) }
            let store = try reading.openForReading(file, context)
            if count {
                let total = try store.read { tx in try tx.countKeys(matching: keyPattern, typenames: typenames) }
                let shown = limit.map { min($0, total) } ?? total
                switch output.format {
                case .text: context.print(String(shown))
                case .json, .jsonl: output.format.emit(.object([("count", .int(shown))]), to: context)
                }
                // Like grep -c: the count is the answer, the status says whether
                // anything matched; but a type no record has is most often a
                // typo, named as without --count. With --limit 0 what matched
                // is what counts, as when the keys are listed.
                if total == 0 && (keyPattern != nil || !typenames.isEmpty) {
                    let absent = try store.read { tx in try tx.absentTypenames(typenames) }
                    guard absent.isEmpty else {
                        throw CommandFailure(
                            .notFound, KeySuggestions.typenameNotFoundMessage(absent, in: file.path) { CompletionSources.typenames(in: store) }
                                + (try damagedNote(keyPattern, store: store)))
                    }
                    // The count is the answer; a damaged record that may be of the type is still said.
                    try warnOfDamagedRecords(keyPattern, store: store, context: context)
                    throw CommandFailure(.notFound, "")
                }
                try warnOfDamagedRecords(keyPattern, store: store, context: context)
                try reportAbsentTypenames(store: store, context: context)
                return
            }
            var listed = 0
            let array = output.format == .json ? StreamedJSONArray(context) : nil
            defer { array?.close() }
            try context.holdingOutput(while: store) { try store.read { tx in
                try tx.forEachKey(matching: keyPattern, typenames: typenames, limit: limit) { key in
                    switch output.format {
                    case .text where null: NullTerminated.write(key, context: context)
                    case .text: context.print(key.display)
                    case .jsonl: context.print(JSONWriter.quoted(key.rawValue, asStored: false))
                    case .json: array?.append(JSONWriter.quoted(key.rawValue, asStored: false))
                    }
                    listed += 1
                }
            } }
            array?.close()
            // --limit 0 lists none of what matched: only a miss is one.
            let matchedUnlisted = try limit == 0 && store.read { tx in try tx.countKeys(matching: keyPattern, typenames: typenames) } > 0
            if listed == 0 && !matchedUnlisted && (keyPattern != nil || !typenames.isEmpty) {
                throw CommandFailure(.notFound, noMatchMessage(keyPattern, store: store))
            }
            try warnOfDamagedRecords(keyPattern, store: store, context: context)
            try reportAbsentTypenames(store: store, context: context)
        }

        /// With --type, damaged records whose type cannot be read are
        /// neither listed nor left out knowingly: said on standard error,
        /// as rm --type says it. (A miss says it in its message.)
        private func warnOfDamagedRecords(_ keyPattern: KeyPattern?, store: CacheStore, context: CommandContext) throws {
            guard !typenames.isEmpty else { return }
            let damaged = try store.read { tx in try tx.countDamagedWithoutTypename(matching: keyPattern) }
            guard damaged > 0 else { return }
            context.warn("\(plural(damaged, "damaged record")) in \(file.path) \(damaged == 1 ? "has" : "have") no readable __typename, "
                + "so --type cannot tell whether \(damaged == 1 ? "it is" : "they are") of the type; 'gqlcache doctor' lists them")
        }

        /// Of several --type names, one that no record has is most often a
        /// typo, which the others' keys would hide: it is named on standard
        /// error after the keys of the rest, with exit status 1, as rm --type
        /// names it after removing the rest (and ls a missing file beside
        /// others). A type the file has, which only the pattern leaves out
        /// (`keys 'Human:%' --type Human --type Droid`), is no mistake. Read
        /// only when several names were given and something matched (a
        /// second pass).
        private func reportAbsentTypenames(store: CacheStore, context: CommandContext) throws {
            guard Set(typenames).count > 1 else { return }
            let absent = try store.read { tx in try tx.absentTypenames(typenames) }
            guard !absent.isEmpty else { return }
            context.report(.notFound, KeySuggestions.typenameNotFoundMessage(absent, in: file.path) { CompletionSources.typenames(in: store) })
        }

        /// Worded as `rm`'s: what was asked for, then the file.
        private func noMatchMessage(_ keyPattern: KeyPattern?, store: CacheStore) -> String {
            let types = typenames.isEmpty ? nil : OptionTable.choices(typenames)
            // One pass over the records, read only for a miss by type: the names
            // the file holds, and the damaged records whose type cannot be read.
            let census = types == nil ? nil : try? store.read { tx in try tx.census(largest: 0, damagedKeys: 0) }
            // Those the pattern matches, as the warning after a listing counts them.
            let damaged = types == nil ? "" : (try? damagedNote(keyPattern, store: store)) ?? ""
            switch (keyPattern, types) {
            case (let keyPattern?, let types?):
                // A type no record has at all, not the pattern, is what matched nothing.
                let held = Set((census?.typeCounts ?? []).compactMap(\.typename))
                let absent = typenames.filter { !held.contains($0) }
                if census != nil, !absent.isEmpty {
                    return KeySuggestions.typenameNotFoundMessage(absent, in: file.path) { held.sorted() } + damaged
                }
                return keyPattern.noMatchMessage(in: file.path, typenames: types) + damaged
            case (let keyPattern?, nil): return keyPattern.noMatchMessage(in: file.path)
            case (nil, _?):
                return KeySuggestions.typenameNotFoundMessage(typenames, in: file.path) { (census?.typeCounts ?? []).compactMap(\.typename).sorted() }
                    + damaged
            case (nil, nil): return "no records in \(file.path)"
            }
        }

        /// Damaged records (those `keyPattern` matches) have no __typename to
        /// read: one of them may be of the type asked for, as `rm --type` also warns.
        private func damagedNote(_ keyPattern: KeyPattern?, store: CacheStore) throws -> String {
            let damaged = try store.read { tx in try tx.countDamagedWithoutTypename(matching: keyPattern) }
            guard damaged > 0 else { return "" }
            return " (\(plural(damaged, "damaged record")) \(damaged == 1 ? "has" : "have") no readable __typename; 'gqlcache doctor' lists them)"
        }
    }
}

extension GQLCache.Keys {
    /// The spellings `keys` takes, as ``PlainCommandLine`` reads them:
    /// every option of the command but help.
    static let plainNames: [String: (kind: PlainCommandLine.Kind, readAs: String)] = [
        "--mode": (.option, "--mode"),
        "--type": (.repeatableOption, "--type"),
        "--limit": (.unconditionalOption, "--limit"),
        "--count": (.flag, "--count"),
        "--null": (.flag, "--null"),
        "-z": (.flag, "--null"),
        "-Z": (.flag, "--null"),
        "--format": (.option, "--format"),
        "--color": (.option, "--color"),
        "--quiet": (.flag, "--quiet"),
        "-q": (.flag, "--quiet"),
        "--no-pager": (.flag, "--no-pager"),
        "--busy-timeout": (.unconditionalOption, "--busy-timeout"),
    ]

    /// `keys` is the command scripts run once per pattern or type, and a
    /// count takes milliseconds: a plain command line is read without the
    /// parser's reflection, into the very command the parser would make
    /// of it (a test holds the two to that). Nil for any other line.
    static func parsePlainly(_ words: ArraySlice<String>) -> Self? {
        guard let line = PlainCommandLine(words, names: plainNames), (1...2).contains(line.positionals.count) else { return nil }
        do {
            var command = Self()
            var file = CacheFileArgument()
            file.path = line.positionals[0]
            try file.validate()
            command.file = file
            command.pattern = line.positionals.count == 2 ? line.positionals[1] : nil
            command.mode = try line.value("--mode", as: KeyPattern.Mode.self)
            command.typenames = line.values("--type")
            command.limit = try line.value("--limit", as: Int.self)
            command.count = line.flag("--count")
            command.null = line.flag("--null")
            var output = OutputOptions()
            output.format = try line.value("--format", as: OutputFormat.self) ?? .text
            command.output = output
            var display = DisplayOptions()
            display.color = try line.value("--color", as: ColorChoice.self)
            display.quiet = line.flag("--quiet")
            command.display = display
            var pager = PagerOptions()
            pager.noPager = line.flag("--no-pager")
            command.pager = pager
            var reading = ReadOptions()
            reading.busyTimeout = try line.value("--busy-timeout", as: Double.self) ?? BusyTimeout.standard
            try reading.validate()
            command.reading = reading
            // What the parser checks once it has the values; a line that
            // fails goes to the parser, for its message.
            try command.validate()
            return command
        } catch {
            return nil
        }
    }
}

/// `keys --null` and `grep --keys-only --null`: keys as they are, each
/// ended by a NUL, for `xargs -0` (a key such as Apollo's
/// `…[review:commentary:This is a great movie!,stars:5])` holds spaces,
/// which xargs splits on).
enum NullTerminated {
    static func check(_ null: Bool, format: OutputFormat, count: Bool = false) throws {
        guard null else { return }
        if format != .text { throw ValidationError("--null lists keys as text; --format \(format.rawValue) gives each key exactly already") }
        if count { throw ValidationError("--null ends listed keys; --count lists none") }
    }

    /// The key and a NUL; a key that holds a NUL itself (no Apollo key
    /// does) cannot be told from two, and is named on standard error instead.
    static func write(_ key: CacheKey, context: CommandContext) {
        guard !key.rawValue.contains("\u{0}") else {
            context.warn("the key \(key.inMessage) holds a NUL, which --null cannot end; left out (--format jsonl lists it)")
            return
        }
        context.stdout.write(key.rawValue + "\u{0}")
    }
}
