import CReadline
import Foundation

/// GNU readline at a terminal: line editing, history kept in a file, Tab
/// completion from the session, Ctrl-C that clears the line. The only file
/// that imports readline.
public final class ReadlineLineReader: LineReader {
    private let historyFile: HistoryFile?
    private static let historyLimit = 1000

    /// `historyPath` nil keeps no history file.
    public init(historyPath: String?) {
        historyFile = historyPath.map { HistoryFile(path: $0, limit: Self.historyLimit) }
        gqlcache_set_readline_name("gqlcache")
        // Keys hold ':', '(', '.' and ',': only whitespace separates words.
        gqlcache_set_word_breaks(" \t\n")
        gqlcache_install_sigint_handler()
        using_history()
        if let historyFile {
            historyFile.prepare()
            // Read by HistoryFile, not readline, which would split a statement of several lines.
            for entry in historyFile.entries() { add_history(entry) }
        }
    }

    /// The history file: `GQLCACHE_HISTORY`, else `~/.gqlcache_history`;
    /// nil without either (no `HOME`), or when `GQLCACHE_HISTORY` is empty.
    public static func historyPath(environment: [String: String]) -> String? {
        if let path = environment["GQLCACHE_HISTORY"] { return path.isEmpty ? nil : path }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return (home as NSString).appendingPathComponent(".gqlcache_history")
    }

    public func readLine(prompt: String, freshPrompt: String) -> String? {
        guard let line = gqlcache_readline(prompt, freshPrompt) else { return nil }
        defer { free(line) }
        return String(cString: line)
    }

    /// A statement typed over several lines is one entry, newlines and all.
    public func addToHistory(_ line: String) {
        add_history(line)
        historyFile?.append(line)
    }

    public func takeInterrupt() -> Bool { gqlcache_take_interrupt() != 0 }

    public func setCompleter(_ completer: REPLCompleter?) {
        ReadlineCompletion.completer = completer
        gqlcache_set_completion(completer == nil ? nil : { text, start, _ in ReadlineCompletion.matches(text, start) })
    }
}

/// The completion callback's state: readline calls a plain C function.
enum ReadlineCompletion {
    nonisolated(unsafe) static var completer: REPLCompleter?

    static func matches(_ text: UnsafePointer<CChar>?, _ start: Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        guard let completer, let text else { return nil }
        let word = String(cString: text)
        let buffer = gqlcache_line_buffer().map { String(cString: $0) } ?? ""
        let before = String(decoding: Array(buffer.utf8.prefix(Int(start))), as: UTF8.self)
        switch completer.complete(word: word, before: before) {
        case .fileNames:
            gqlcache_set_completion_over(0)
            return nil
        case .candidates(let candidates):
            gqlcache_set_completion_over(1)
            guard !candidates.isEmpty else { return nil }
            // readline wants the common prefix first, then every match, then NULL.
            var common = candidates[0]
            for candidate in candidates.dropFirst() {
                common = String(common.commonPrefix(with: candidate))
            }
            let all = [common] + (candidates.count > 1 ? candidates : [])
            let array = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: all.count + 1)
            for (index, item) in all.enumerated() { array[index] = strdup(item) }
            array[all.count] = nil
            return array
        }
    }
}
