import CacheStore
import Foundation

/// A line whose bytes are not UTF-8: `offset` is where the first bad byte
/// is, counted from 0 at the line's start.
struct NotUTF8Text: Error, Equatable {
    let offset: Int
}

extension LineSource {
    /// ``readTextLine()``, with bytes that are not UTF-8 refused as a
    /// usage failure naming the input (`name`) and the line's `number`.
    func readTextLine(named name: String, number: Int) throws -> String? {
        do {
            return try readTextLine()
        } catch let error as NotUTF8Text {
            throw CommandFailure(.usage, "\(name):\(number): not UTF-8 text, at byte \(error.offset) of the line")
        }
    }
}

/// getline(3) over a C stream, into one buffer reused line after line.
final class StreamLines {
    private let stream: UnsafeMutablePointer<FILE>
    private var line: UnsafeMutablePointer<CChar>?
    private var capacity = 0

    init(_ stream: UnsafeMutablePointer<FILE>) { self.stream = stream }

    deinit { free(line) }

    /// `body` with the next line's bytes (its line break included), read
    /// in place; nil at the end.
    func withNextLine<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T? {
        let length = getline(&line, &capacity, stream)
        guard length >= 0, let line else { return nil }
        return try line.withMemoryRebound(to: UInt8.self, capacity: length) { try body(UnsafeBufferPointer(start: $0, count: length)) }
    }

    /// A line's text without its line break. `validating`: bytes that are
    /// not UTF-8 throw ``NotUTF8Text``, saying where, instead of being
    /// quietly replaced with U+FFFD.
    static func text<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes, validating: Bool) throws -> String
    where Bytes.SubSequence == Bytes {
        var bytes = bytes
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
        guard validating else { return String(decoding: bytes, as: UTF8.self) }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        throw NotUTF8Text(offset: firstInvalidOffset(bytes))
    }

    private static func firstInvalidOffset<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput, .error: return offset
            }
        }
    }
}

/// The lines of a file, read with a buffer, without their line breaks.
final class FileLines: LineSource {
    private let file: UnsafeMutablePointer<FILE>
    private let lines: StreamLines
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
        if FileProbe.isHeldByAnOpenStore(path) {
            throw CommandFailure(.usage, "\(path): a cache file open in this session, not an export")
        }
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
        lines = StreamLines(file)
    }

    deinit { fclose(file) }

    /// The next line, with any bytes that are not UTF-8 replaced by U+FFFD.
    func readLine() -> String? {
        // Not validating, nothing throws.
        (try? nextLine(validating: false)) ?? nil
    }

    func readTextLine() throws -> String? {
        try nextLine(validating: true)
    }

    private func nextLine(validating: Bool) throws -> String? {
        if !head.isEmpty {
            // The probed bytes come first: a line of their own when they
            // hold its end, else the start of the line getline reads.
            if let end = head.firstIndex(of: 0x0A) {
                defer { head.removeFirst(end + 1) }
                return try StreamLines.text(head[..<end], validating: validating)
            }
            let start = head
            head = []
            return try lines.withNextLine { try StreamLines.text(start[...] + $0, validating: validating) }
                ?? StreamLines.text(start[...], validating: validating)
        }
        return try lines.withNextLine { try StreamLines.text($0[...], validating: validating) }
    }
}
