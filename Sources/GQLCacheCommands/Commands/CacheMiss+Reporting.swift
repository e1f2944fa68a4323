import CacheQuery

extension CacheMiss {
    /// Why a field key and the record's differ only in how a number is
    /// written, for a miss or a warning (spec §3: Apollo on Apple
    /// platforms and its Linux builds write a whole Float nested in a list
    /// or an input object differently, and only a schema says a number is
    /// a Float).
    static func numberWritingNote(schemaGiven: Bool) -> String {
        let platforms = "a whole Float inside a list or an input object is written 2.0, as Apollo's Linux builds write it, "
            + "where Apollo on Apple platforms writes 2"
        return schemaGiven
            ? "only how a number is written differs: \(platforms); a file from a device or simulator may hold the other"
            : "only how a number is written differs: give --schema, and arguments are written as their types say (\(platforms))"
    }

    /// A record that is not there is "not found"; data that does not fit is damaged.
    var status: ExitStatus {
        switch reason {
        case .missingField, .missingRecord: return .notFound
        case .damagedRecord, .typeMismatch: return .damagedRecord
        }
    }
}
