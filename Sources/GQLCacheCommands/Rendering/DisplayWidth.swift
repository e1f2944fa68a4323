extension String {
    /// The columns a terminal gives the text: two for a wide (East Asian)
    /// or emoji character, none for a combining mark or a zero-width
    /// character, one for the rest. Tables pad by it, so that rows holding
    /// such characters still line up.
    var displayWidth: Int {
        var width = 0
        for character in self {
            guard let first = character.unicodeScalars.first else { continue }
            // Zero-width spaces and joiners, bidirectional controls: format characters, no column.
            if first.properties.generalCategory == .format { continue }
            let emoji = character.unicodeScalars.contains { $0.properties.isEmojiPresentation }
                || character.unicodeScalars.contains { $0.value == 0xFE0F }
            width += emoji || first.isWide ? 2 : 1
        }
        return width
    }
}

extension Unicode.Scalar {
    /// East Asian Wide or Fullwidth: Hangul, CJK, kana, fullwidth forms.
    fileprivate var isWide: Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}

/// Padding for `text` to `width` columns (none when it is as wide or wider).
func padding(_ text: String, to width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.displayWidth))
}

/// The widest a first column is padded to: a longer label (a key of
/// thousands of characters) overflows on its own row rather than
/// pushing every other row's value off the screen.
let widestPaddedLabel = 60

extension String {
    /// The text broken at spaces into lines of at most `width` columns,
    /// the first starting at the current column `start` (what precedes it
    /// on its line), the others after `indent` spaces. A word wider than a
    /// line stands alone on its own. `width` 0 leaves the text whole.
    func wrapped(width: Int, start: Int, indent: Int) -> String {
        guard width > 0 else { return self }
        var lines: [String] = []
        var line = ""
        var column = start
        var lineHasWord = false
        for word in split(separator: " ") {
            let wordWidth = String(word).displayWidth
            if lineHasWord && column + 1 + wordWidth > width {
                lines.append(line)
                line = String(repeating: " ", count: indent)
                column = indent
                lineHasWord = false
            }
            if lineHasWord {
                line += " "
                column += 1
            }
            line += word
            column += wordWidth
            lineHasWord = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
