import CacheQuery

extension CacheMiss {
    /// Why a field key (`ours`) and the record's (`theirs`) differ only in
    /// how a number is written, for a miss or a warning, and what to do:
    /// Apollo on Apple platforms writes a whole Float nested in a list or
    /// an input object `2`, its Linux builds `2.0` (spec §3); a literal is
    /// written as the document gives it, and only a schema says a
    /// variable's number is a Float.
    static func numberWritingNote(ours: String, theirs: String, schemaGiven: Bool, form: NumberForm) -> String {
        guard let (mine, held) = FieldKey.firstDifferentNumbers(ours, theirs) else { return "only how a number is written differs" }
        var note = "only how a number is written differs: the record has \(held) where this read has \(mine)"
        let wholeFloat = "a whole Float inside a list or an input object"
        if mine.contains(".") && !held.contains(".") {
            note += "; Apollo on Apple platforms writes \(wholeFloat) so (a cache from a device or simulator)"
            note += form == .linux ? ": give --apple-floats" : "; so does the document or a variable that gives it as \(held)"
        } else if held.contains(".") && !mine.contains(".") {
            if form == .apple { return note + "; Apollo's Linux builds write \(wholeFloat) so: leave out --apple-floats" }
            note += schemaGiven
                ? "; a number the document writes \(mine) is written so: write it \(held)"
                : "; give --schema, and a Float argument is written as its type says, or write it \(held) in the document"
        }
        return note
    }

    /// A record that is not there is "not found"; data that does not fit is damaged.
    var status: ExitStatus {
        switch reason {
        case .missingField, .missingRecord: return .notFound
        case .damagedRecord, .typeMismatch: return .damagedRecord
        }
    }
}
