import CacheStore
import CSignals
import Foundation

/// A one-line progress indicator on standard error for operations that scan
/// the whole file. Drawn only when standard error is a terminal, and only
/// once the operation has run for `context.progressDelay` (half a second);
/// erased when it ends. Commands use it through ``CommandContext/withProgress(_:scans:_:)``:
///
/// ```swift
/// let stats = try context.withProgress("counting records", scans: 1) { progress in
///     try store.read(progress: progress) { tx in try tx.census(largest: 5, damagedKeys: 5) }
/// }
/// ```
///
/// `scans` is how many times the transaction reads the whole table (each
/// full scan adds about one table's rows to ``ScanProgress/rowsVisited``);
/// the percentage shown is the rows visited out of `scans` tables' rows.
final class ProgressIndicator {
    private let label: String
    private let scans: Int
    private let sink: TextSink
    private let clock: () -> Double
    private let start: Double
    private let delay: Double
    private var lastDrawn: Double?
    /// The terminal's width, read when the line is first drawn: a line
    /// wider than the terminal would wrap, and each redraw leave a line behind.
    private let columns: () -> Int
    private var width: Int?
    private static let redrawInterval = 0.1

    init(label: String, scans: Int, sink: TextSink, clock: @escaping () -> Double, delay: Double, columns: @escaping () -> Int = { 0 }) {
        self.columns = columns
        self.label = label
        self.scans = max(scans, 1)
        self.sink = sink
        self.clock = clock
        self.start = clock()
        self.delay = delay
    }

    func update(_ progress: ScanProgress) {
        let now = clock()
        guard now - start >= delay else { return }
        if let lastDrawn, now - lastDrawn < Self.redrawInterval { return }
        lastDrawn = now
        if width == nil { width = columns() }
        let line = Self.line(label: label, progress: progress, scans: scans, elapsed: now - start, width: width ?? 0)
        sink.write("\r" + line + "\u{1B}[K")
        sink.flush()
    }

    /// Erases the line, if one was drawn; says whether it was.
    @discardableResult
    func finish() -> Bool {
        guard lastDrawn != nil else { return false }
        sink.write("\r\u{1B}[K")
        sink.flush()
        return true
    }

    /// The text of the line: `gqlcache: removing keys matching 'Post:' 42% (1.3 s)`.
    /// With `width` (columns; 0: unknown), the label is cut to leave the
    /// last column free, so that the line never wraps.
    static func line(label: String, progress: ScanProgress, scans: Int, elapsed: Double, width: Int = 0) -> String {
        let whole = max(progress.totalRows, 1) * max(scans, 1)
        // Never 100% while still running: the last steps after the scans take time too.
        let percent = min(99, progress.rowsVisited * 100 / whole)
        let prefix = "gqlcache: "
        let suffix = " \(percent)% (\(String(format: "%.1f", elapsed)) s)"
        let room = width - 1 - prefix.count - suffix.count
        guard width > 0, label.displayWidth > room else { return prefix + label + suffix }
        var cut = ""
        for character in label {
            guard (cut + String(character)).displayWidth <= room - 1 else { break }
            cut.append(character)
        }
        guard room > 0 else { return String(suffix.dropFirst().prefix(max(width - 1, 0))) }
        return prefix + cut + "…" + suffix
    }
}

extension CommandContext {
    /// Runs `body` with a progress handler for its store transaction: nil
    /// (no cost, nothing drawn) unless standard error is a terminal.
    func withProgress<T>(_ label: String, scans: Int = 1, _ body: (ProgressHandler?) throws -> T) rethrows -> T {
        guard stderrIsTerminal else { return try body(nil) }
        stdout.flush()
        let indicator = ProgressIndicator(
            label: label, scans: scans, sink: stderr, clock: clock, delay: progressDelay, columns: { Int(gqlcache_terminal_columns(2)) })
        defer { progressLineErased = indicator.finish() }
        return try body { indicator.update($0) }
    }
}
