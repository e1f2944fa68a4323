/// A titled table: the header row starts with the title, rows are indented
/// under it; the first column is left-aligned, the others right-aligned,
/// each padded to its widest cell, two spaces between.
///
/// ```
/// __typename  records  bytes
///   Human           2  270 B
/// ```
func table(_ header: [String], _ rows: [[String]]) -> String {
    let all = [header] + rows.map { ["  " + $0[0]] + $0.dropFirst() }
    // In terminal columns; a first cell wider than widestPaddedLabel overflows its own row only.
    let widths = header.indices.map { column in
        all.map { $0[column].displayWidth }.filter { column > 0 || $0 <= widestPaddedLabel }.max() ?? 0
    }
    return all.map { row in
        let cells = row.indices.map { column -> String in
            let padding = padding(row[column], to: widths[column])
            return column == 0 ? row[column] + padding : padding + row[column]
        }
        return cells.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
    }.joined()
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
