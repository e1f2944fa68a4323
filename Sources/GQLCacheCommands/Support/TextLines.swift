import CacheStore
import Foundation

/// A line whose bytes are not UTF-8: `offset` is where the first bad byte
/// is, counted from 0 at the line's start; `text` is the line read with
/// U+FFFD for its bad bytes, which names nothing and is run as nothing,
/// but tells where a GraphQL document it is part of ends.
public struct NotUTF8Text: Error, Equatable {
    public let offset: Int
    public let text: String
}

/// A line typed at a terminal, and where it stops being UTF-8 text, if it does.
public struct TypedLine: Equatable {
    public let text: String
    public let notUTF8: NotUTF8Text?

    public init(_ text: String) {
        self.text = text
        notUTF8 = nil
    }

    /// The lines of `bytes`, split at each line end (`\n`, `\r`, `\r\n`,
    /// and in text any line break Swift knows): each line that is not
    /// UTF-8 is refused alone, with its own offset.
    static func lines(_ bytes: some Collection<UInt8>) -> [TypedLine] {
        var lines: [TypedLine] = []
        var rest = bytes[...]
        while true {
            let end = rest.firstIndex { $0 == 0x0A || $0 == 0x0D } ?? rest.endIndex
            let line = rest[..<end]
            if let text = String(validating: line, as: UTF8.self) {
                lines += text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { TypedLine(String($0)) }
            } else {
                lines.append(TypedLine(notUTF8: NotUTF8Text(offset: StreamLines.firstInvalidOffset(line), text: String(decoding: line, as: UTF8.self))))
            }
            guard end < rest.endIndex else { return lines }
            // "\r\n" is one line end.
            var next = rest.index(after: end)
            if rest[end] == 0x0D, next < rest.endIndex, rest[next] == 0x0A { next = rest.index(after: next) }
            rest = rest[next...]
        }
    }

    private init(notUTF8: NotUTF8Text) {
        text = notUTF8.text
        self.notUTF8 = notUTF8
    }
}

extension LineSource {
    /// ``readTextLine()``, with bytes that are not UTF-8 refused as a
    /// usage failure naming the input (`name`) and the line's `number`.
    func readTextLine(named name: String, number: Int) throws -> String? {
        do {
            return try readTextLine()
        } catch let error as NotUTF8Text {
            throw CommandFailure(.usage, "\(name):\(number): not UTF-8 text at byte \(error.offset + 1) of the line")
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
        throw NotUTF8Text(offset: firstInvalidOffset(bytes), text: String(decoding: bytes, as: UTF8.self))
    }

    static func firstInvalidOffset<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int {
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

    /// Opens `path`, or fails naming it. A file that is not a regular
    /// file (a pipe such as `<(…)`, a FIFO, `/dev/stdin`) is copied whole
    /// first, as standard input is (see ``spoolingStandardInput(_:)``).
    static func opening(path: String) throws -> FileLines {
        if path.isEmpty { throw CommandFailure(.usage, "an empty name was given for the file to import; name a file, or - for standard input") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure(.io, "\(path): \(FileProbe.whyUnreachable(path) ?? "no such file")")
        }
        guard !isDirectory.boolValue else { throw CommandFailure(.io, "\(path): is a directory, not an export") }
        if FileProbe.isHeldByAnOpenStore(path) {
            throw CommandFailure(.usage, "\(path): a cache file open in this session, not an export")
        }
        let exportCommand = "gqlcache export \(path) > FILE.jsonl"
        if PipeWait.isPipe(path) {
            let descriptor = try PipeWait.openPipe(path, name: path)
            guard descriptor >= 0 else { throw CommandFailure(.io, "\(path): cannot read the file (\(String(cString: strerror(errno))))") }
            defer { close(descriptor) }
            return try spooling(from: descriptor, name: path, exportCommand: exportCommand)
        }
        guard let file = fopen(path, "r") else {
            throw CommandFailure(.io, "\(path): cannot read the file (\(String(cString: strerror(errno))))")
        }
        var status = stat()
        if fstat(fileno(file), &status) == 0 && (status.st_mode & S_IFMT) != S_IFREG {
            defer { fclose(file) }
            return try spooling(from: fileno(file), name: path, exportCommand: exportCommand)
        }
        return try FileLines(file, shownAs: path, exportCommand: exportCommand)
    }

    /// Reads `file`, which it closes; `name` names it in messages, and
    /// `exportCommand` is the command that exports a cache given instead.
    private init(_ file: UnsafeMutablePointer<FILE>, shownAs name: String, exportCommand: String) throws {
        // A cache file given where its export belongs is named for what it is.
        var header = [UInt8](repeating: 0, count: 16)
        let read = fread(&header, 1, 16, file)
        if read == 16, FileProbe.startsAsSQLite(Data(header)) {
            fclose(file)
            throw CommandFailure(.usage, "\(name): an SQLite database, not an export (export it first: \(exportCommand))")
        }
        // Forms an export often takes on its way (a Windows shell's UTF-16, a
        // compressed copy), named, where "not UTF-8" would leave the reader guessing.
        if let form = Self.otherForm(of: header.prefix(read), named: name) {
            fclose(file)
            throw CommandFailure(.usage, "\(name): \(form); nothing imported")
        }
        head = Array(header.prefix(read))
        self.file = file
        lines = StreamLines(file)
    }

    /// What a file's first bytes say it is, when it is a form of text
    /// import does not read: UTF-16 or UTF-32 by its byte-order mark, or
    /// gzip, bzip2, xz or zstd compressed; nil otherwise.
    static func otherForm(of head: ArraySlice<UInt8>, named name: String) -> String? {
        let bytes = Array(head)
        func starts(_ prefix: [UInt8]) -> Bool { bytes.starts(with: prefix) }
        if starts([0xFF, 0xFE, 0, 0]) || starts([0, 0, 0xFE, 0xFF]) {
            return "UTF-32 text (it begins with a byte-order mark); convert it first: iconv -f UTF-32 -t UTF-8"
        }
        if starts([0xFF, 0xFE]) || starts([0xFE, 0xFF]) {
            return "UTF-16 text (it begins with a byte-order mark), as a Windows shell may write it; convert it first: iconv -f UTF-16 -t UTF-8"
        }
        let compressed: [(magic: [UInt8], name: String, tool: String)] = [
            ([0x1F, 0x8B], "gzip", "gunzip -c"), ([0x42, 0x5A, 0x68], "bzip2", "bunzip2 -c"),
            ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "xz", "xz -dc"), ([0x28, 0xB5, 0x2F, 0xFD], "zstd", "zstd -dc"),
        ]
        if let found = compressed.first(where: { starts($0.magic) }) {
            let file = name == "standard input" ? "FILE" : ShellQuoting.file(name)
            return "\(found.name)-compressed; decompress it first: \(found.tool) \(file) | gqlcache import CACHE -"
        }
        return nil
    }

    /// The lines of standard input (`input`), copied whole to a temporary
    /// file first, which is then read: a command that reads what it merges
    /// (`import CACHE -`) takes its lock only once the input has ended, not
    /// while a slow pipe, or an export of the same file that waits for its
    /// reader, keeps it open. The file is unlinked at once: nothing stays
    /// behind, however the process ends.
    static func spoolingStandardInput(_ input: LineSource) throws -> FileLines {
        let exportCommand = "gqlcache export CACHE > FILE.jsonl"
        if input is StandardInputLines { return try spooling(from: STDIN_FILENO, name: "standard input", exportCommand: exportCommand) }
        // Lines given as strings (tests, a script's lines).
        let (file, fail) = try temporaryCopy(name: "standard input")
        while let line = input.readLine() {
            guard fputs(line + "\n", file) >= 0 else { throw fail("cannot make a temporary copy") }
        }
        return try reading(file, fail: fail, name: "standard input", exportCommand: exportCommand)
    }

    /// The lines read from `descriptor` to its end, through a temporary copy.
    private static func spooling(from descriptor: Int32, name: String, exportCommand: String) throws -> FileLines {
        let (file, fail) = try temporaryCopy(name: name)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        // No export holds a NUL byte: the copy stops at the first (/dev/zero
        // would fill the disk), once the bytes before it are kept to tell a
        // database or a compressed file by its first bytes.
        var copied = 0
        var nul: Int?
        while nul == nil {
            var count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw fail("cannot be read") }
            if count == 0 { break }
            if let at = buffer[..<count].firstIndex(of: 0) {
                nul = copied + at
                count = at + 1
            }
            guard fwrite(buffer, 1, count, file) == count else { throw fail("cannot make a temporary copy") }
            copied += count
        }
        let lines = try reading(file, fail: fail, name: name, exportCommand: exportCommand)
        if let nul { throw CommandFailure(.usage, "\(name): not an export: it holds a NUL byte, at byte \(nul); nothing imported") }
        return lines
    }

    /// A temporary file, unlinked, for a copy of the input `name`, and how
    /// to fail naming it (closing the file).
    private static func temporaryCopy(name: String) throws -> (UnsafeMutablePointer<FILE>, (String) -> CommandFailure) {
        var folder = NSTemporaryDirectory()
        if folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        var template = Array((folder + "/gqlcache-input.XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            // Named with the folder, which TMPDIR chooses.
            throw CommandFailure(
                .io, "\(name): cannot make a temporary copy in \(folder) (\(String(cString: strerror(errno)))); TMPDIR names the folder")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        guard let file = fdopen(descriptor, "w+") else {
            close(descriptor)
            throw CommandFailure(.io, "\(name): cannot make a temporary copy (\(String(cString: strerror(errno))))")
        }
        func fail(_ what: String) -> CommandFailure {
            let error = CommandFailure(.io, "\(name): \(what) (\(String(cString: strerror(errno))))")
            fclose(file)
            return error
        }
        return (file, fail)
    }

    /// The lines of the temporary copy `file`, written, from its start.
    private static func reading(
        _ file: UnsafeMutablePointer<FILE>, fail: (String) -> CommandFailure, name: String, exportCommand: String
    ) throws -> FileLines {
        guard fflush(file) == 0 else { throw fail("cannot make a temporary copy") }
        rewind(file)
        return try FileLines(file, shownAs: name, exportCommand: exportCommand)
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
