/// Several named texts read as one GraphQL source, with the way back from a
/// line of the whole to the file it came from and that file's own line.
///
/// ```swift
/// let combined = CombinedSource([("a.graphqls", "type A { x: Int }"), ("b.graphqls", "extend type A { y: Int }")])
/// combined.location(ofLine: 2)   // ("b.graphqls", 1)
/// ```
struct CombinedSource {
    /// The texts joined, each ending with a newline.
    let text: String
    private let starts: [(name: String, firstLine: Int)]

    init(_ sources: [(name: String, text: String)]) {
        var text = ""
        var starts: [(name: String, firstLine: Int)] = []
        var line = 1
        for source in sources {
            starts.append((source.name, line))
            text += source.text + "\n"
            line += source.text.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
        }
        self.text = text
        self.starts = starts
    }

    /// Every file's name, as the name of the whole.
    var names: String { starts.map(\.name).joined(separator: ", ") }

    /// The file holding `line` of the whole, and the line within it; for
    /// line 0 (an error with no place), every file's name and line 0.
    func location(ofLine line: Int) -> (name: String, line: Int) {
        guard line > 0, let start = starts.last(where: { $0.firstLine <= line }) else { return (names, 0) }
        return (start.name, line - start.firstLine + 1)
    }
}
