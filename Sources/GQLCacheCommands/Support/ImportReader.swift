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
    /// The first non-blank line, read to find the form.
    private var pending: (number: Int, text: String)?
    /// The Apollo Client object's records, once read.
    private var extracted: ArraySlice<Record>?
    /// The form was found from the input, not named.
    private let formFound: Bool

    /// Opens the input and, when `form` is nil, finds the form from its
    /// first line: a `{"key": …, "record": {…}}` line is JSON Lines, anything
    /// else the Apollo Client object.
    init(name: String, lines: LineSource, form: ExchangeForm?) {
        self.name = name
        self.lines = lines
        var first: (Int, String)?
        var number = 0
        while var line = lines.readLine() {
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
        switch form {
        case .jsonl: return try nextLines(size: size)
        case .apolloClient: return try nextExtracted(size: size)
        }
    }

    private func nextLine() -> (number: Int, text: String)? {
        if let line = pending {
            pending = nil
            return line
        }
        while let line = lines.readLine() {
            lineNumber += 1
            if !line.allSatisfy(\.isWhitespace) { return (lineNumber, line) }
        }
        return nil
    }

    private func nextLines(size: Int) throws -> [Record]? {
        var batch: [Record] = []
        batch.reserveCapacity(size)
        while batch.count < size, let line = nextLine() {
            let record: Record
            do {
                record = try RecordLine.record(fromLine: line.text)
            } catch let error as CacheStoreError {
                throw CommandFailure(.usage, "\(name):\(line.number): \(error) (a JSON Lines export has one record per line); nothing imported")
            }
            if record.key.rawValue.isEmpty {
                throw CommandFailure(.usage, "\(name):\(line.number): the key is empty, which no Apollo cache key is; nothing imported")
            }
            // Refused here, so that a dry run refuses it too, naming the line.
            if record.key.rawValue.utf8.contains(0) {
                throw CommandFailure(.usage, "\(name):\(line.number): \(Self.nulMessage(record.key))")
            }
            batch.append(record)
        }
        return batch.isEmpty ? nil : batch
    }

    private func nextExtracted(size: Int) throws -> [Record]? {
        if extracted == nil {
            var text = ""
            while let line = nextLine() {
                text += line.text
                text += "\n"
            }
            do {
                let document = try FieldValue(jsonText: text)
                if formFound, Self.isGraphQLResponse(document) {
                    throw CommandFailure(
                        .usage,
                        "\(name): a GraphQL response ({\"data\": …}), not an export; 'gqlcache write' stores a response as Apollo does; nothing imported")
                }
                extracted = ArraySlice(try ApolloClientForm.records(fromExtract: document))
            } catch let error as CacheStoreError {
                throw CommandFailure(.usage, "\(name): \(error) (read as Apollo Client's extract() object); nothing imported")
            }
            if extracted?.contains(where: { $0.key.rawValue.isEmpty }) == true {
                throw CommandFailure(.usage, "\(name): an entity ID is empty, which no Apollo cache key is; nothing imported")
            }
            if let record = extracted?.first(where: { $0.key.rawValue.utf8.contains(0) }) {
                throw CommandFailure(.usage, "\(name): \(Self.nulMessage(record.key))")
            }
        }
        guard let records = extracted, !records.isEmpty else { return nil }
        let batch = Array(records.prefix(size))
        extracted = records.dropFirst(size)
        return batch
    }

    private static func nulMessage(_ key: CacheKey) -> String {
        "the key \(JSONWriter.quoted(key.rawValue, asStored: false)) holds a NUL character, which a cache key cannot; nothing imported"
    }

    /// `{"data": {…}}`, with `errors` and `extensions` beside it or not: a
    /// server's response, which an extract() object (keyed by entity IDs
    /// such as ROOT_QUERY and User:1) never is in practice.
    private static func isGraphQLResponse(_ document: FieldValue) -> Bool {
        guard case .object(let members) = document, let data = members["data"] else { return false }
        switch data {
        case .object, .null: break
        default: return false
        }
        return Set(members.keys).isSubset(of: ["data", "errors", "extensions"])
    }
}

/// The lines of a file, read with a buffer, without their line breaks.
final class FileLines: LineSource {
    private let file: UnsafeMutablePointer<FILE>
    private var line: UnsafeMutablePointer<CChar>?
    private var capacity = 0
    /// The first bytes, read to tell an SQLite file, and not yet returned:
    /// a pipe cannot be rewound to read them again.
    private var head: [UInt8] = []

    /// Opens `path`, or fails naming it.
    init(path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure(.io, "\(path): no such file")
        }
        guard !isDirectory.boolValue else { throw CommandFailure(.io, "\(path): is a directory, not an export") }
        guard let file = fopen(path, "r") else {
            throw CommandFailure(.io, "\(path): cannot read the file (\(String(cString: strerror(errno))))")
        }
        // A cache file given where its export belongs is named for what it is.
        var header = [UInt8](repeating: 0, count: 16)
        let read = fread(&header, 1, 16, file)
        if read == 16, FileProbe.startsAsSQLite(Data(header)) {
            fclose(file)
            throw CommandFailure(.usage, "\(path): an SQLite database, not an export (export it first: gqlcache export \(path) > FILE.jsonl)")
        }
        head = Array(header.prefix(read))
        self.file = file
    }

    deinit {
        free(line)
        fclose(file)
    }

    func readLine() -> String? {
        if !head.isEmpty {
            // The probed bytes come first: a line of their own when they
            // hold its end, else the start of the line getline reads.
            if let end = head.firstIndex(of: 0x0A) {
                let text = Self.text(head[..<end])
                head.removeFirst(end + 1)
                return text
            }
            let start = head
            head = []
            return withNextLine { Self.text(start[...] + $0) } ?? Self.text(start[...])
        }
        return withNextLine { Self.text($0[...]) }
    }

    /// `body` with the next line's bytes from the file (its line break
    /// included), read in place; nil at the end.
    private func withNextLine<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
        let length = getline(&line, &capacity, file)
        guard length >= 0, let line else { return nil }
        return line.withMemoryRebound(to: UInt8.self, capacity: length) { body(UnsafeBufferPointer(start: $0, count: length)) }
    }

    /// A line's text, without its line break.
    private static func text<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> String where Bytes.SubSequence == Bytes {
        var bytes = bytes
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
