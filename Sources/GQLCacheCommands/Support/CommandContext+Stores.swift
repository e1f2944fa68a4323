import CacheStore

/// The stores a command opens: watched for stop signals, closed when it
/// ends, and read with its output held where the read's lock must not wait
/// on a reader.
extension CommandContext {
    /// Lets a signal interrupt `store`'s writes rather than end the
    /// process in the middle of one, where ``catchesStopSignals`` says so.
    func watchForStopSignals(_ store: CacheStore) {
        if catchesStopSignals { StopSignals.shared.watch(store) }
    }

    /// Closes `store` when the command ends, unless the REPL keeps it open
    /// for the next command (it closes its stores when it ends).
    func closeWhenDone(_ store: CacheStore) {
        if openStores == nil && !storesOpenedForWriting.contains(where: { $0 === store }) { storesOpenedForWriting.append(store) }
    }

    /// A cache file this command made (`--create`): watched as the stores
    /// it opens to write are, closed when it ends, and named among the
    /// files changed when its output fails.
    func madeNew(_ store: CacheStore) {
        watchForStopSignals(store)
        if !storesOpenedForWriting.contains(where: { $0 === store }) { storesOpenedForWriting.append(store) }
    }

    /// The files this command has changed: its stores opened for writing
    /// whose writes committed.
    var filesChanged: [String] { storesOpenedForWriting.filter(\.hasCommittedChanges).map(\.path) }

    /// Closes the stores the command opened for writing, so that a file in
    /// WAL mode gets its changes out of the -wal file, as after the sqlite3
    /// shell. A close that fails leaves them there, where SQLite still
    /// finds them. Where SQLite could not copy them in, that is said: the
    /// change stands in the -wal file alone, which a copy of the file lacks.
    func closeStoresOpenedForWriting() {
        for store in storesOpenedForWriting {
            try? store.close()
            if let failure = store.checkpointFailureAtClose {
                warn("\(store.path): the change stands in \(store.path)-wal alone: SQLite could not copy it into the file (\(failure)), "
                    + "so keep that file beside it (a copy of the file alone lacks the change); the -wal file may belong to another "
                    + "copy of the cache: 'gqlcache doctor' says more")
            }
        }
        storesOpenedForWriting.removeAll()
    }

    /// Runs `body`, a read of `store` that prints as it goes, with standard
    /// output (or `output`, such as an `--output` naming a pipe) held until it ends, where the read's lock holds off the
    /// app's writes (a rollback-journal file) and the output's reader may
    /// stall (a pager, a pipe): Apollo gives up a write at once when the
    /// file is locked, and a pager left on its first page would keep the
    /// lock for as long as it stays open.
    func holdingOutput<T>(of output: TextSink? = nil, while store: CacheStore, _ body: () throws -> T) rethrows -> T {
        let output = output ?? stdout
        guard let sink = (output as? FileOutput)?.direct ?? output as? FileDescriptorSink, sink.readerMayStall, store.readsHoldOffWriters
        else { return try body() }
        sink.hold()
        defer { sink.release() }
        return try body()
    }
}
