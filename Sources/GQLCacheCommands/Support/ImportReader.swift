import CacheQuery
import CacheStore
import Foundation

/// Reads the records of an export, in either form, a batch at a time: JSON
/// Lines line by line (memory holds one batch), the Apollo Client object
/// whole (it is one JSON document).
final class ImportReader {
    /// "standard input" or the file's path, for messages.
    let name: String
    let form: ExchangeForm
    private let lines: LineSource
    private var lineNumber = 0
    /// The line each key of the last batch was first read from (JSON Lines).
    private var batchLines: [CacheKey: Int] = [:]

    /// Where the last batch gave `key`: `NAME:LINE` for JSON Lines, the
    /// input's name for the Apollo Client form (one object over many lines).
    func place(of key: CacheKey) -> String {
        batchLines[key].map { "\(name):\($0)" } ?? name
    }
    /// The first non-blank line, read to find the form.
    private var pending: (number: Int, text: String)?
    /// The Apollo Client object's records, once read.
    private var extracted: ArraySlice<Record>?
    /// The form was found from the input, not named.
    private let formFound: Bool
    /// Where the first member given twice inside a record was (`NAME:LINE:COLUMN`),
    /// its name, and how many lines gave one (an Apollo Client object counts once).
    private var firstRepeat: (place: String, name: String, inTwoSpellings: Bool)?
    private var repeatCount = 0

    /// The warning for members given twice inside records, whose last
    /// value was kept (as the file's records are read), or nil.
    var repeatedMemberWarning: String? {
        guard let (place, name, inTwoSpellings) = firstRepeat else { return nil }
        let more = repeatCount > 1 ? " (and in \(plural(repeatCount - 1, "more line")))" : ""
        let given = inTwoSpellings ? "is given in two spellings of one character" : "is given twice"
        return "\(place): the member \(JSONWriter.quoted(name, asStored: false)) \(given) in one object; the last value is kept, "
            + "as a record stored so is read\(more)"
    }

    /// The first entity ID an Apollo Client object gives twice (byte for
    /// byte), and how many IDs it gives more than once.
    private var repeatedEntity: (id: String, count: Int)?

    /// The warning for entity IDs given twice: their members are merged in
    /// order, as two lines for one key are, where Apollo Client's
    /// `JSON.parse` keeps only the last object.
    var repeatedEntityWarning: String? {
        guard let (id, count) = repeatedEntity else { return nil }
        let more = count > 1 ? " (and \(plural(count - 1, "more ID")))" : ""
        return "\(name): the entity \(JSONWriter.quoted(id, asStored: false)) is given twice\(more); its members are merged in order, "
            + "where Apollo Client's JSON.parse would keep only the last"
    }

    /// The first field keyed as Apollo Client keys a field with arguments,
    /// its record, and how many fields are.
    private var clientFieldKeys: (field: String, key: CacheKey, count: Int)?

    /// The warning for fields keyed as Apollo Client keys them
    /// (`hero({"episode":"JEDI"})`, or `feed:{…}` for key arguments): they
    /// are imported as they are, and Apollo iOS, which keys the field
    /// `hero(episode:JEDI)`, never reads them.
    var clientFieldKeyWarning: String? {
        guard let (field, key, count) = clientFieldKeys else { return nil }
        let more = count > 1 ? " (and \(plural(count - 1, "more field")))" : ""
        return "\(name): the field \(field.shortenedForMessage.shownOnLine) of '\(key.inMessage)' is keyed as Apollo Client keys a "
            + "field's arguments\(more); it is imported as it is, and Apollo iOS, which writes them as name(arg:value), never reads it"
    }

    /// `name({` or `name:{`: arguments as Apollo Client writes them, JSON,
    /// which no field key Apollo iOS writes begins with.
    static func isClientFieldKey(_ field: String) -> Bool {
        guard let first = field.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
        let rest = field.unicodeScalars.drop { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
        return rest.starts(with: "({".unicodeScalars) || rest.starts(with: ":{".unicodeScalars)
    }

    private func noteRepeat(_ repeated: RepeatedMember, at place: String) {
        repeatCount += 1
        if firstRepeat == nil { firstRepeat = (place, repeated.name, repeated.inTwoSpellings) }
    }

    /// Opens the input and, when `form` is nil, finds the form from its
    /// first line: a `{"key": …, "record": {…}}` line is JSON Lines, anything
    /// else the Apollo Client object.
    init(name: String, lines: LineSource, form: ExchangeForm?) throws {
        self.name = name
        self.lines = lines
        var first: (Int, String)?
        var number = 0
        while var line = try Self.readLine(lines, name: name, number: number + 1) {
            number += 1
            // A byte order mark some editors put first is not part of the JSON.
            if number == 1 && line.hasPrefix("\u{FEFF}") { line.removeFirst() }
            if !line.allSatisfy(\.isWhitespace) {
                first = (number, line)
                break
            }
        }
        lineNumber = number
        pending = first
        self.form = form ?? (first.map { RecordLine.isRecordLine($0.1) } == false ? .apolloClient : .jsonl)
        formFound = form == nil
    }

    /// Up to `size` records, or nil at the end. Throws a usage failure that
    /// names the input and line for input that is not of the form.
    func nextBatch(size: Int) throws -> [Record]? {
        batchLines.removeAll(keepingCapacity: true)
        switch form {
        case .jsonl: return try nextLines(size: size)
        case .apolloClient: return try nextExtracted(size: size)
        }
    }

    /// The next line as text; bytes that are not UTF-8 are refused, naming
    /// the line, rather than imported as U+FFFD in their place.
    private static func readLine(_ lines: LineSource, name: String, number: Int) throws -> String? {
        do {
            return try lines.readTextLine(named: name, number: number)
        } catch let failure as CommandFailure {
            throw CommandFailure(failure.status, failure.message + "; nothing imported")
        }
    }

    private func nextLine() throws -> (number: Int, text: String)? {
        if let line = pending {
            pending = nil
            return line
        }
        while let line = try Self.readLine(lines, name: name, number: lineNumber + 1) {
            lineNumber += 1
            if !line.allSatisfy(\.isWhitespace) { return (lineNumber, line) }
        }
        return nil
    }

    private func nextLines(size: Int) throws -> [Record]? {
        var batch: [Record] = []
        batch.reserveCapacity(size)
        while batch.count < size, let line = try nextLine() {
            let record: Record
            do {
                let repeated: RepeatedMember?
                (record, repeated) = try RecordLine.recordNotingRepeats(fromLine: line.text)
                if let repeated {
                    noteRepeat(repeated, at: "\(name):\(line.number):\(Self.column(of: repeated.offset, in: line.text))")
                }
            } catch CacheStoreError.invalidJSON(let offset, let message) {
                throw CommandFailure(
                    .usage, "\(name):\(line.number):\(Self.column(of: offset, in: line.text)): not JSON: \(message)\(Self.hint(at: offset, in: line.text)); nothing imported")
            } catch let error as CacheStoreError {
                if case .repeatedMember(let offset, _) = error {
                    throw CommandFailure(.usage, "\(name):\(line.number):\(Self.column(of: offset, in: line.text)): \(error); nothing imported")
                }
                throw CommandFailure(.usage, "\(name):\(line.number): \(error); nothing imported")
            }
            if record.key.rawValue.isEmpty {
                throw CommandFailure(.usage, "\(name):\(line.number): the key is empty, which no Apollo cache key is; nothing imported")
            }
            // Refused here, so that a dry run refuses it too, naming the line.
            if record.key.rawValue.utf8.contains(0) {
                throw CommandFailure(.usage, "\(name):\(line.number): \(Self.nulMessage(record.key))")
            }
            if let problem = Self.unstorableNumber(in: record) { throw CommandFailure(.usage, "\(name):\(line.number): \(problem)") }
            if batchLines[record.key] == nil { batchLines[record.key] = line.number }
            batch.append(record)
        }
        return batch.isEmpty ? nil : batch
    }

    /// The column of a UTF-8 offset in one line of JSON Lines input. A
    /// carriage return inside the line is whitespace to JSON, not the
    /// start of a line (as ``SourcePlace`` takes it for a document).
    static func column(of offset: Int, in line: String) -> Int {
        String(decoding: line.utf8.prefix(offset), as: UTF8.self).utf16.count + 1
    }

    /// What most often gives a syntax error in a line of JSON Lines: a
    /// record written over several lines (the line ends inside its JSON),
    /// or lines that end in a carriage return alone (old Mac text), read
    /// as one line.
    static func hint(at offset: Int, in line: String) -> String {
        // The line's own line break is gone: a carriage return left is inside it.
        if line.utf8.contains(0x0D) {
            return " (the line holds a carriage return: lines end in a line feed, or CR LF)"
        }
        return offset >= line.utf8.count ? " (a JSON Lines export has one record per line)" : ""
    }

    private func nextExtracted(size: Int) throws -> [Record]? {
        if extracted == nil {
            // Lines rejoined with newlines between them only: a file cut short
            // inside a string must end there, not in a newline the file lacks.
            var text = ""
            var first = true
            while let line = try nextLine() {
                if !first { text += "\n" }
                text += line.text
                first = false
            }
            if formFound, RecordLine.startsWithPrettyRecord(text) {
                throw CommandFailure(
                    .usage,
                    "\(name): a JSON Lines record spread over several lines, where JSON Lines has one per line ('jq -c .' puts each "
                        + "on one); nothing imported")
            }
            var entities: [ApolloClientForm.Entity] = []
            do {
                let repeated: RepeatedMember?
                (entities, repeated) = try ApolloClientForm.entities(inExtractText: text)
                if let repeated {
                    let place = SourcePlace(utf8Offset: repeated.offset, in: text)
                    // The object is read as one: its first is named, not counted by record.
                    noteRepeat(repeated, at: "\(name):\(place.line):\(place.column)")
                }
                if formFound, Self.isGraphQLResponse(entities) {
                    throw CommandFailure(
                        .usage,
                        "\(name): a GraphQL response ({\"data\": …}), not an export; 'gqlcache write' stores a response as Apollo does; nothing imported")
                }
                var seen = Set<[UInt8]>(), repeatedIDs = Set<[UInt8]>()
                for entity in entities where !seen.insert(Array(entity.id.utf8)).inserted && repeatedIDs.insert(Array(entity.id.utf8)).inserted {
                    repeatedEntity = (repeatedEntity?.id ?? entity.id, repeatedIDs.count)
                }
                extracted = ArraySlice(try ApolloClientForm.records(fromEntities: entities))
            } catch let problem as ApolloClientForm.EntityProblem {
                let offset = problem.field.flatMap { ApolloClientForm.offset(ofField: $0, ofEntityAt: problem.offset, in: text) } ?? problem.offset
                let place = SourcePlace(utf8Offset: offset, in: text)
                throw CommandFailure(.usage, "\(name):\(place.line):\(place.column): \(problem.message) (read as Apollo Client's extract() object); nothing imported")
            } catch CacheStoreError.invalidJSON(let offset, let message) {
                let place = SourcePlace(utf8Offset: offset, in: text)
                throw CommandFailure(
                    .usage, "\(name):\(place.line):\(place.column): not JSON: \(message) (read as Apollo Client's extract() object); nothing imported")
            } catch CacheStoreError.repeatedMember(let offset, let member) {
                let place = SourcePlace(utf8Offset: offset, in: text)
                throw CommandFailure(
                    .usage, "\(name):\(place.line):\(place.column): \(CacheStoreError.repeatedMember(offset: offset, name: member)); nothing imported")
            } catch let error as CacheStoreError {
                throw CommandFailure(.usage, "\(name): \(error) (read as Apollo Client's extract() object); nothing imported")
            }
            // Each named at its place in the text: the entity's ID, or the field.
            func place(of entity: ApolloClientForm.Entity, field: String? = nil) -> String {
                let offset = field.flatMap { ApolloClientForm.offset(ofField: $0, ofEntityAt: entity.offset, in: text) } ?? entity.offset
                let place = SourcePlace(utf8Offset: offset, in: text)
                return "\(name):\(place.line):\(place.column)"
            }
            let imported = entities.filter { !$0.id.utf8.elementsEqual(ApolloClientForm.metadataMember.utf8) }
            if let empty = imported.first(where: { ApolloClientForm.cacheKey(forEntityID: $0.id).rawValue.isEmpty }) {
                throw CommandFailure(.usage, "\(place(of: empty)): an entity ID is empty, which no Apollo cache key is; nothing imported")
            }
            if let nul = imported.first(where: { $0.id.utf8.contains(0) }) {
                throw CommandFailure(.usage, "\(place(of: nul)): \(Self.nulMessage(ApolloClientForm.cacheKey(forEntityID: nul.id)))")
            }
            for entity in imported {
                guard case .object(let members) = entity.value else { continue }
                let record = Record(key: ApolloClientForm.cacheKey(forEntityID: entity.id), fields: members)
                if let found = record.numberApolloCannotRead, let problem = Self.unstorableNumber(in: record) {
                    throw CommandFailure(.usage, "\(place(of: entity, field: found.field)): \(problem)")
                }
            }
            for record in extracted ?? [] {
                for field in record.fields.keys.filter(Self.isClientFieldKey).sorted(by: byteOrder) {
                    clientFieldKeys = (clientFieldKeys?.field ?? field, clientFieldKeys?.key ?? record.key, (clientFieldKeys?.count ?? 0) + 1)
                }
            }
        }
        guard let records = extracted, !records.isEmpty else { return nil }
        let batch = Array(records.prefix(size))
        extracted = records.dropFirst(size)
        return batch
    }

    /// A number too large for a Double reads as infinity, which Apollo's
    /// JSONSerialization refuses, and the whole record with it: `write`
    /// refuses it, and so does import, rather than store what Apollo
    /// could not read. One too small (1e-400) Apollo reads as 0: it is
    /// stored as written, as export gives it, so an export imports whole.
    private static func unstorableNumber(in record: Record) -> String? {
        guard let found = record.numberApolloCannotRead else { return nil }
        return "field '\(found.field)' of '\(record.key.rawValue)' holds a number too large for a Double, which Apollo cannot store; nothing imported"
    }

    private static func nulMessage(_ key: CacheKey) -> String {
        "the key \(JSONWriter.quoted(key.rawValue, asStored: false)) holds a NUL character, which a cache key cannot; nothing imported"
    }

    /// `{"data": {…}}`, with `errors` and `extensions` beside it or not: a
    /// server's response, which an extract() object (keyed by entity IDs
    /// such as ROOT_QUERY and User:1) never is in practice.
    private static func isGraphQLResponse(_ entities: [ApolloClientForm.Entity]) -> Bool {
        guard let data = entities.first(where: { $0.id == "data" })?.value else { return false }
        switch data {
        case .object, .null: break
        default: return false
        }
        return entities.allSatisfy { ["data", "errors", "extensions"].contains($0.id) }
    }
}
