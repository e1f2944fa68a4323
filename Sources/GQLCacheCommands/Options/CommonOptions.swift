import ArgumentParser
import CacheStore

/// The cache file every command takes first.
struct CacheFileArgument: ParsableArguments {
    @Argument(
        help: ArgumentHelp("The cache file, e.g. cache.sqlite from the app's container.", valueName: "cache-file"),
        completion: .file(extensions: ["sqlite", "sqlite3", "db"]))
    var path: String

    func validate() throws {
        // "gqlcache: : no such file" would name nothing.
        if path.isEmpty { throw ValidationError("the cache file is an empty name; name a file, e.g. cache.sqlite") }
    }

    /// Opens the file read-only: nothing in it or beside it is created or
    /// changed. Warns when only an immutable snapshot could be read.
    /// `busyTimeout`: seconds to wait while another process holds the lock.
    func openForReading(_ context: CommandContext, busyTimeout: Double) throws -> CacheStore {
        try Self.openForReading(path, context, busyTimeout: busyTimeout)
    }

    /// Opens another file read-only, as ``openForReading(_:)`` does.
    /// `shared: false` opens a store of its own even where the REPL keeps
    /// one open.
    static func openForReading(_ path: String, _ context: CommandContext, busyTimeout: Double, shared: Bool = true) throws -> CacheStore {
        let openStores = shared ? context.openStores : nil
        let store = try openStores?.store(path: path, access: .readOnly, busyTimeout: busyTimeout) {
            try CacheStore.open(at: path, access: .readOnly, busyTimeout: busyTimeout, interrupt: $0)
        } ?? CacheStore.open(at: path, access: .readOnly, busyTimeout: busyTimeout)
        if store.isImmutableSnapshot, let wal = store.fileSizes().wal, wal > 0 {
            context.warn(
                "\(path): its folder is not writable, so it was read as an immutable snapshot; "
                    + "changes still in \(path)-wal are not included")
        }
        return store
    }
}

/// The deepest `--depth` of show and refs. Each level indents the text a
/// step further and nests the JSON one more: a chain of 100,000
/// references drawn in full would have lines of 300,000 characters and
/// nest deeper than the stack allows.
enum ReferenceDepth {
    static let maximum = 1_000
}

/// How results are printed.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, jsonl
}

struct OutputOptions: ParsableArguments {
    @Option(help: "Output format: text for people; json (one document) or jsonl (one JSON value per line) for scripts.")
    var format: OutputFormat = .text
}

/// `--busy-timeout`, as every command that opens the file takes it.
enum BusyTimeout {
    /// What SQLite waits when no --busy-timeout is given.
    static let standard: Double = 5
    static let help = ArgumentHelp("Seconds to wait while another process (the app) holds the database lock.", valueName: "seconds")

    static func validate(_ seconds: Double) throws {
        guard seconds >= 0, seconds <= CacheStore.maximumBusyTimeout else {
            throw ValidationError("--busy-timeout must be from 0 to \(Int(CacheStore.maximumBusyTimeout)) seconds")
        }
    }
}

/// Options of commands that only read the file.
struct ReadOptions: ParsableArguments {
    // Unconditional: a negative number is a value to refuse with a reason, not another option.
    @Option(name: .customLong("busy-timeout"), parsing: .unconditional, help: BusyTimeout.help)
    var busyTimeout: Double = BusyTimeout.standard

    func validate() throws { try BusyTimeout.validate(busyTimeout) }

    /// Opens the file read-only (``CacheFileArgument/openForReading(_:busyTimeout:)``).
    func openForReading(_ file: CacheFileArgument, _ context: CommandContext) throws -> CacheStore {
        try file.openForReading(context, busyTimeout: busyTimeout)
    }
}

/// Options of commands that change the file.
struct WriteOptions: ParsableArguments {
    // Unconditional: a negative number is a value to refuse with a reason, not another option.
    @Option(name: .customLong("busy-timeout"), parsing: .unconditional, help: BusyTimeout.help)
    var busyTimeout: Double = BusyTimeout.standard

    @Flag(help: ArgumentHelp(
        "Before changing the file, copy it beside itself (through a symbolic link, beside the file it names) as FILE.backup-YYYYMMDD-HHMMSS (SQLite's online backup: consistent while the app has it open; an existing file is never overwritten: -2, -3, … follow a name taken) and print the copy's path on standard error (with --format json, also as the document's \"backup\" member; with jsonl, the summary line's, for rm, gc, clear and import, which print one)."))
    var backup = false

    func validate() throws { try BusyTimeout.validate(busyTimeout) }

    /// A read-only opening, with the same wait.
    func openForReading(_ file: CacheFileArgument, _ context: CommandContext) throws -> CacheStore {
        try file.openForReading(context, busyTimeout: busyTimeout)
    }

    /// A dry run's opening, read-only: it still shows what the change would
    /// be, also on a file kept from writes, and warns on standard error when
    /// the change itself would be refused (a trigger, a write-protected or
    /// read-only file, a --backup that cannot be made), naming the status
    /// it would have; its own is 0.
    func openForDryRun(_ file: CacheFileArgument, _ context: CommandContext) throws -> CacheStore {
        let store = try openForReading(file, context)
        if let refusal = try store.refusalOfAWrite() ?? (backup ? store.refusalOfABackup(date: context.now()) : nil) {
            context.warn("the change itself would be refused (exit status \(ExitStatus(for: refusal).rawValue)): \(refusal)")
        }
        return store
    }

    /// Opens the file for writing. With --backup, the store's next write
    /// first copies the file and the copy's path is printed; without it, a
    /// request left on a store the REPL keeps open is cancelled, so every
    /// command that writes decides for itself.
    func openForWriting(_ file: CacheFileArgument, _ context: CommandContext) throws -> CacheStore {
        let store = try context.openStores?.store(path: file.path, access: .readWrite, busyTimeout: busyTimeout) {
            try CacheStore.open(at: file.path, access: .readWrite, busyTimeout: busyTimeout, interrupt: $0)
        } ?? CacheStore.open(at: file.path, access: .readWrite, busyTimeout: busyTimeout)
        context.watchForStopSignals(store)
        context.closeWhenDone(store)
        store.backUpBeforeNextWrite(backup ? BackupRequest(date: context.now()) { copy in
            context.backupCopy = copy
            context.stdout.flush()
            context.stderr.write("gqlcache: \(CommandContext.oneLine("backed up \(file.path) to \(copy)"))\n")
        } : nil)
        return store
    }
}

extension KeyPattern.Mode: ExpressibleByArgument {
    /// One line per mode, for --help.
    static var helpText: String {
        "apollo: substring, ASCII letters in either case, with % and _ as LIKE wildcards (Apollo's removeObjects(matching:)); "
            + "literal: the same with % and _ literal; prefix: keys starting with the text (case-sensitive, uses the index); "
            + "glob: whole key, * ? [..] [!..] and \\ as a shell reads them (case-sensitive); regex: ICU regular expression anywhere in the key"
    }
}
