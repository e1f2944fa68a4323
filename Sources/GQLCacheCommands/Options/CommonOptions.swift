import ArgumentParser
import CacheStore

/// The cache file every command takes first.
struct CacheFileArgument: ParsableArguments {
    @Argument(
        help: ArgumentHelp("The cache file, e.g. cache.sqlite from the app's container.", valueName: "cache-file"),
        completion: .file(extensions: ["sqlite", "sqlite3", "db"]))
    var path: String

    /// Opens the file read-only: nothing in it or beside it is created or
    /// changed. Warns when only an immutable snapshot could be read.
    func openForReading(_ context: CommandContext) throws -> CacheStore {
        let store = try context.openStores?.store(path: path, access: .readOnly, busyTimeout: 0) {
            try CacheStore.open(at: path, access: .readOnly)
        } ?? CacheStore.open(at: path, access: .readOnly)
        if store.isImmutableSnapshot, let wal = store.fileSizes().wal, wal > 0 {
            context.warn(
                "\(path): its folder is not writable, so it was read as an immutable snapshot; "
                    + "changes still in \(path)-wal are not included")
        }
        return store
    }
}

/// How results are printed.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, jsonl
}

struct OutputOptions: ParsableArguments {
    @Option(help: "Output format: text for people; json (one document) or jsonl (one object per line) for scripts.")
    var format: OutputFormat = .text
}

/// Options of commands that change the file.
struct WriteOptions: ParsableArguments {
    @Option(
        name: .customLong("busy-timeout"),
        help: ArgumentHelp("Seconds to wait while another process (the app) holds the database lock.", valueName: "seconds"))
    var busyTimeout: Double = 5

    func validate() throws {
        guard busyTimeout >= 0, busyTimeout <= CacheStore.maximumBusyTimeout else {
            throw ValidationError("--busy-timeout must be from 0 to \(Int(CacheStore.maximumBusyTimeout)) seconds")
        }
    }

    func openForWriting(_ file: CacheFileArgument, _ context: CommandContext) throws -> CacheStore {
        try context.openStores?.store(path: file.path, access: .readWrite, busyTimeout: busyTimeout) {
            try CacheStore.open(at: file.path, access: .readWrite, busyTimeout: busyTimeout)
        } ?? CacheStore.open(at: file.path, access: .readWrite, busyTimeout: busyTimeout)
    }
}

extension KeyPattern.Mode: ExpressibleByArgument {
    /// One line per mode, for --help.
    static var helpText: String {
        "apollo: case-insensitive substring with % and _ as LIKE wildcards (Apollo's removeObjects(matching:)); "
            + "literal: case-insensitive substring, % and _ literal; prefix: keys starting with the text (case-sensitive, uses the index); "
            + "glob: whole key, * ? [..] (case-sensitive); regex: ICU regular expression anywhere in the key"
    }
}
