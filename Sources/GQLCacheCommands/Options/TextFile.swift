import Foundation

/// UTF-8 text files named on the command line or found through a config.
enum TextFile {
    /// The file's text, or an I/O failure that says whether it is missing or
    /// unreadable, naming it `name` (the path when not given).
    static func read(_ path: String, what: String, name: String? = nil) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            let name = name ?? path
            throw CommandFailure(.io, FileManager.default.fileExists(atPath: path) ? "\(name): cannot read the \(what)" : "\(name): no such file")
        }
        return text
    }
}
