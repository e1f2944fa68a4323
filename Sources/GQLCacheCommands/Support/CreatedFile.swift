import CacheStore
import Foundation

/// `--create` on the commands that may make the cache file they write
/// (`write`, `import`): which file it makes, and what a missing file
/// without it is told.
enum CreatedFile {
    /// The file is not there, or is empty (0 bytes, as `touch` leaves it),
    /// which SQLite and Apollo take for an empty database: --create makes
    /// a cache of it.
    /// A path that cannot be reached (a link loop, a folder that may not
    /// be searched) is no missing file: opening it says why.
    static func isToBeMade(_ path: String) -> Bool {
        (!FileManager.default.fileExists(atPath: path) && FileProbe.whyUnreachable(path) == nil) || CacheStore.isEmptyFile(at: path)
    }

    /// A dry run of a --create refuses what the run would: a -journal or
    /// -wal file an earlier database left where the file would be made.
    static func refuseLeftoverJournal(_ path: String) throws {
        if let problem = CacheStore.leftoverJournalProblem(forNewFileAt: path) { throw CommandFailure(.io, "\(path): \(problem)") }
    }

    /// Without --create, a missing file is named with the flag that makes
    /// one; any other file goes on to be opened (and an empty one refused
    /// as no cache, with the same hint).
    static func refuseMissing(_ path: String) throws {
        if let why = FileProbe.whyUnreachable(path) { throw CommandFailure(.io, "\(path): \(why)") }
        if !FileManager.default.fileExists(atPath: path) {
            throw CommandFailure(.io, "\(path): no such file; --create makes a new cache file")
        }
        if CacheStore.isEmptyFile(at: path) {
            throw CommandFailure(.notACache, "\(path): not an Apollo iOS cache: the file is empty (0 bytes); --create makes a cache of it")
        }
    }

    /// Makes the cache file --create names, or nil when another program
    /// made it meanwhile (after ``isToBeMade(_:)`` said it was missing: two
    /// `import --create` at once): the command then writes into that file
    /// as into any that exists, rather than fail with its records unwritten.
    static func make(_ path: String, context: CommandContext) throws -> CacheStore? {
        let store: CacheStore
        do {
            // A signal that ends the process while the file is made leaves no scratch file.
            store = try CacheStore.create(at: path) { scratch, made in
                if made { StopSignals.shared.removeOnStop(scratch) } else { StopSignals.shared.forget(scratch) }
            }
        } catch CacheStoreError.fileExists {
            return nil
        }
        context.madeNew(store)
        return store
    }

    /// Undoes a --create whose command failed: a file it made is removed
    /// with its journals, and a file that was empty is made empty again;
    /// unless another program wrote records into it meanwhile (between
    /// its making and this command's write), which are kept. Decided
    /// under the write lock (see ``CacheStore/removeUnlessItHoldsRecords(emptying:)``).
    static func undo(_ path: String, store: CacheStore, wasEmpty: Bool) {
        store.removeUnlessItHoldsRecords(emptying: wasEmpty)
    }
}
