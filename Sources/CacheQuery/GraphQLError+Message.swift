import GraphQL

extension GraphQLError {
    /// The first line of the message, without the source name and place a
    /// syntax error repeats ("Syntax Error NAME (1:27) Expected Name, found
    /// <EOF>" becomes "syntax error: Expected Name, found <EOF>"): errors
    /// here say the place themselves, as FILE:LINE:COLUMN.
    var oneLineMessage: String {
        let message = self.message.components(separatedBy: "\n").first ?? self.message
        if message.hasPrefix("Syntax Error"), let place = message.range(of: ") ") {
            return "syntax error: " + message[place.upperBound...]
        }
        return message
    }

    /// Line and column of the first location, zero when there is none.
    var firstPlace: (line: Int, column: Int) {
        locations.first.map { ($0.line, $0.column) } ?? (0, 0)
    }
}
