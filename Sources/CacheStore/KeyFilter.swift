import Foundation
internal import GRDB

/// The SQL condition that selects rows by key pattern and typenames.
struct KeyFilter {
    let sql: String
    let arguments: StatementArguments

    init(pattern: KeyPattern?, typenames: [String]) {
        var conditions: [String] = []
        var arguments: [String] = []
        // A row without a key, or with a BLOB key that no lookup by text
        // finds (CacheGraph.blobKeyRows), is not listed: it cannot be shown
        // or removed by its key. A range of text keys holds neither.
        if let pattern {
            let condition = pattern.sqlCondition()
            conditions.append(condition.sql)
            arguments += condition.arguments
            if !pattern.isBoundedTextRange { conditions.append("typeof(key) = 'text'") }
        } else {
            conditions.append("typeof(key) = 'text'")
        }
        if !typenames.isEmpty {
            let places = Array(repeating: "?", count: typenames.count).joined(separator: ", ")
            conditions.append("\(Self.typenameExpression) IN (\(places))")
            arguments += typenames
        }
        self.sql = conditions.joined(separator: " AND ")
        self.arguments = StatementArguments(arguments)
    }

    /// A record's `__typename`, NULL for a damaged record or one without.
    /// SQLite's json_extract takes the first of two `__typename`s; a
    /// record's typename is the last, as Apollo's JSON reader and the rest
    /// of the store read it (rm --type, info, stats). Only a text that names
    /// `__typename` twice, or holds a `\u` escape (json_extract does not
    /// match `"__typen\u0061me"`, which JSON readers take for `__typename`),
    /// needs the store's own reading.
    static let typenameExpression = """
        (CASE WHEN instr(substr(record, instr(record, '"__typename"') + 12), '"__typename"') > 0 \
        OR instr(record, '\\u') > 0 \
        THEN \(TypenameFunction.sqlName)(record) \
        WHEN json_valid(record) THEN json_extract(record, '$.__typename') END)
        """
}
