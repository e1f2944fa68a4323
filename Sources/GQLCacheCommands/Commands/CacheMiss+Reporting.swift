import CacheQuery

extension CacheMiss {
    /// Why this missing field's key and the record's `theirs` differ only
    /// in how a number is written, for a miss or a warning, and what to do.
    /// Apollo on Apple platforms writes a Float nested in a list or an input
    /// object as NSNumber describes it (`2`), its Linux builds as Swift
    /// describes the Double (`2.0`) (spec §3): a record holding the key the
    /// other form gives came from the other platform. Otherwise the app gave
    /// the number as an Int where this read has a Float, or the other way
    /// round: a literal is written as the document gives it, and only a
    /// schema says a variable's number is a Float.
    /// `otherFormKnown`: false where ``keyInOtherNumberForm`` was not worked
    /// out (a write's fields), and the other platform is one possible cause.
    func numberWritingNote(theirs: String, schemaGiven: Bool, form: NumberForm, reading: String = "this read", otherFormKnown: Bool = true) -> String? {
        guard case .missingField(let ours, _) = reason, let (mine, held) = FieldKey.firstDifferentNumbers(ours, theirs) else { return nil }
        let note = "only how a number is written differs: the record has \(held) where \(reading) has \(mine)"
        if theirs == keyInOtherNumberForm {
            return note + (form == .linux
                ? "; Apollo on Apple platforms writes a Float inside a list or an input object so (a cache from a device or simulator): give --apple-floats"
                : "; Apollo's Linux builds write a Float inside a list or an input object so: leave out --apple-floats")
        }
        let isWhole = { (number: String) in !number.contains(where: { ".eE".contains($0) }) }
        var advice: [String] = []
        if isWhole(held) && !isWhole(mine) {
            if !otherFormKnown && form == .linux {
                advice.append("give --apple-floats if the file came from a device or simulator, where Apollo writes a Float inside a list or an input object so")
            }
            advice.append("if the app gave an Int there, write it \(held) in the document or the variables")
        } else if isWhole(mine) && !isWhole(held) {
            if !otherFormKnown && form == .apple {
                // With the flag a nested Float is written whole however it is given: leaving the flag out is the fix to try.
                return note + "; leave out --apple-floats if the file came from Apollo's Linux builds, which write a Float inside a list or an input object so"
            }
            advice.append(schemaGiven
                ? "if the app gave a Float there, write it \(held) in the document or the variables"
                : "if the app gave a Float there, give --schema, and a Float variable is written as its type says, or write it \(held)")
        }
        return note + advice.map { "; " + $0 }.joined()
    }

    /// ` (only how a number is written differs: …)` for a missing field whose
    /// record holds its key written otherwise; empty for any other miss.
    func numberWritingSuffix(schemaGiven: Bool, form: NumberForm, reading: String = "this read", otherFormKnown: Bool = true) -> String {
        guard case .missingField(let fieldKey, let similar) = reason,
              let alike = similar.first(where: { FieldKey.differOnlyInNumbers($0, fieldKey) }),
              let note = numberWritingNote(theirs: alike, schemaGiven: schemaGiven, form: form, reading: reading, otherFormKnown: otherFormKnown)
        else { return "" }
        return " (\(note))"
    }

    /// A record that is not there is "not found"; data that does not fit is damaged.
    var status: ExitStatus {
        switch reason {
        case .missingField, .missingRecord: return .notFound
        case .damagedRecord, .typeMismatch: return .damagedRecord
        }
    }
}
