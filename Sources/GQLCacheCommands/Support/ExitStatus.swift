import CacheStore

/// The exit statuses of every command, as the README and man page document.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Success.
    case success = 0
    /// A key, record or match was not found, or the user declined.
    case notFound = 1
    /// The command line was wrong.
    case usage = 2
    /// The file is not an Apollo iOS cache (or a layout not supported yet).
    case notACache = 3
    /// Another process held the database lock past the busy timeout.
    case busy = 4
    /// The file could not be read or written.
    case io = 5
    /// A record in the file is damaged (NULL, not valid JSON, not a JSON object, or nested too deep), or a
    /// read with a schema found a value that does not fit its type.
    case damagedRecord = 6
    /// `doctor` found problems in the cache (the check itself ran).
    case problemsFound = 7
    /// Ctrl-C stopped the command.
    case interrupted = 130
}

/// A failure that stops a command with a status and a one-line message.
public struct CommandFailure: Error, Equatable {
    public let status: ExitStatus
    public let message: String

    public init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }
}

extension CommandFailure {
    /// A signal stopped `--vacuum` after the removal before it committed:
    /// the VACUUM changed nothing, the removal stands (the report above
    /// says what it was), and "nothing was changed" would be untrue.
    static func vacuumStopped(_ path: String, quiet: Bool) -> CommandFailure {
        let reportedAbove = quiet ? "--quiet left out its report" : "reported above"
        return CommandFailure(.interrupted, "\(path): interrupted during VACUUM, so the file may not have shrunk; the change made before it (\(reportedAbove)) was written and stands")
    }

    /// VACUUM failed after the command's change committed (a full disk:
    /// it needs room for a second copy; the app's lock): the failure's
    /// status, and that the change stands, lest it be made again.
    static func vacuumFailed(_ path: String, _ error: Error, quiet: Bool) -> CommandFailure {
        if case .interrupted? = error as? CacheStoreError { return vacuumStopped(path, quiet: quiet) }
        let reportedAbove = quiet ? "--quiet left out its report" : "reported above"
        let status = (error as? CacheStoreError).map(ExitStatus.init(for:)) ?? .io
        return CommandFailure(status, "VACUUM failed: \(error); the file did not shrink, and the change made before it (\(reportedAbove)) was written and stands")
    }

    /// A signal came during VACUUM too late to stop it: the file was
    /// rebuilt, and the report above says so; the status still says the
    /// command was stopped.
    static func stoppedAfterVacuum(_ path: String, quiet: Bool = false) -> CommandFailure {
        let what = quiet ? "everything the command did (--quiet left out its report)" : "what is reported above"
        return CommandFailure(.interrupted, "\(path): stopped, but only once VACUUM had finished, which could no longer stop: \(what) was written and stands")
    }

    /// For a command that has shown what it read of a file whose rows came
    /// out of `_id` order: the file is damaged, so what it showed may be wrong.
    static func damagedFile(_ path: String, _ orderBreak: RowOrderBreak) -> CommandFailure {
        CommandFailure(.io, "\(path): the database file is corrupt (\(orderBreak)); what is shown may be wrong ('gqlcache doctor' says more)")
    }
}

extension ExitStatus {
    /// The status for an error the store threw.
    init(for error: CacheStoreError) {
        switch error {
        case .notACacheFile: self = .notACache
        case .busy, .changedWhileRead: self = .busy
        case .damagedRecord, .reachabilityUnknown: self = .damagedRecord
        case .invalidJSON, .invalidPattern, .patternGaveUp, .recordNestedTooDeep, .cannotConvert, .noRootRecord, .noQueryRoot, .keyHoldsNUL, .repeatedMember: self = .usage
        case .fileNotFound, .fileExists, .readOnly, .io, .corrupt, .damagedFile, .keyIndexOutOfOrder, .transactionEnded: self = .io
        case .interrupted, .stoppedAfterCommit: self = .interrupted
        }
    }
}

/// VACUUM run after a command's change (gc's collection, clear's
/// removal): whether it rebuilt the file, and what the user must still
/// hear once the report is out (``finish(_:quiet:)``).
struct VacuumAfterChange {
    private var failure: Error?
    private var stoppedAfter = false

    /// Runs VACUUM. After a change that committed, a failure or a stop is
    /// kept for ``finish(_:quiet:)``, the report of the change coming first;
    /// with no change before it, it is thrown at once.
    init(_ store: CacheStore, changed: Bool) throws {
        do {
            stoppedAfter = try store.vacuum()
        } catch where changed {
            failure = error
        }
    }

    /// Whether VACUUM rebuilt the file (a stop that came too late included).
    var rebuilt: Bool { failure == nil }

    /// Throws the failure or the late stop, saying that the change stands.
    func finish(_ path: String, quiet: Bool) throws {
        if let failure { throw CommandFailure.vacuumFailed(path, failure, quiet: quiet) }
        if stoppedAfter { throw CommandFailure.stoppedAfterVacuum(path, quiet: quiet) }
    }
}
