import Foundation

/// A write-ahead log (`CACHE-wal`) beside a file that it cannot belong to:
/// copied there from another copy of the cache, or left by a database
/// since replaced. SQLite checks a -wal file's frames against its own
/// header only, so reads may go on as if it belonged; but a checkpoint,
/// which copies the frames into the file, checks what the last commit says
/// of the database's size against the file's, and fails as malformed for
/// good, with every write made since stranded in the -wal file. Told as
/// SQLite's checkpoint tells it: the size the last commit gives is more
/// than the file, the -wal file's frames and the page SQLite may skip
/// (65,536 bytes) could make; or the frames' pages are not the file's size.
struct ForeignWAL: Equatable, Sendable, CustomStringConvertible {
    /// Why the -wal file is not this file's, or cannot make it whole.
    let reason: String
    /// The -wal file, beside the file the path leads to.
    let walPath: String
    /// The file is cut short (its header says more pages than it holds),
    /// which is the likelier cause: the -wal file may well be its own, but
    /// it does not make up the pages the file lacks.
    let fileIsCutShort: Bool

    var description: String {
        if fileIsCutShort {
            return "the file is cut short, and its -wal file, \(walPath), does not hold the pages it lacks (\(reason)): SQLite cannot "
                + "copy the -wal file in (a checkpoint fails as malformed); copy the file again whole, with its -wal file "
                + "(both were left as they are)"
        }
        return "its -wal file, \(walPath), is not this file's (\(reason)): it came from another copy of the cache, and SQLite "
            + "cannot copy it in (a checkpoint fails as malformed); move it away (it was left as it is)"
    }

    /// The mismatch, when the -wal file beside `path` holds a commit that
    /// cannot be this file's; nil when there is none, or it may be.
    static func check(_ path: String) -> ForeignWAL? {
        let file = FileProbe.resolved(path)
        let walPath = (FileProbe.isSymbolicLink(path) ? file : path) + "-wal"
        // The file is read as an open store's connection holds its locks (``OpenStoreFiles``);
        // SQLite holds none on the -wal file.
        guard let commit = lastCommit(inWALAt: file + "-wal"),
            case .success(let head) = OpenStoreFiles.shared.read(file, count: 100), head.count == 100,
            let size = FileProbe.signature(file)?.size
        else { return nil }
        let stored = Int(head[16]) << 8 | Int(head[17])
        let pageSize = stored == 1 ? 65_536 : stored
        if commit.pageSize != pageSize {
            return ForeignWAL(reason: "its pages are \(commit.pageSize) bytes, the file's \(pageSize)", walPath: walPath, fileIsCutShort: false)
        }
        let needed = Int64(commit.databasePages) * Int64(pageSize)
        guard size + 65_536 + Int64(commit.frames) * Int64(pageSize) < needed else { return nil }
        let reason = "its last commit makes the database \(commit.databasePages) pages, where the file holds "
            + "\(size / Int64(pageSize)) and the -wal file \(commit.frames)"
        // A file whose own header says it is as large as the commit has it was cut short after.
        if let cut = FileProbe.truncation(path), needed <= cut.expected {
            return ForeignWAL(reason: reason + "; the file's header says \(cut.expected / Int64(pageSize))", walPath: walPath, fileIsCutShort: true)
        }
        return ForeignWAL(reason: reason, walPath: walPath, fileIsCutShort: false)
    }

    /// What a -wal file's last commit says, read as SQLite recovers it:
    /// its frames, in order, while each has the header's salts and its
    /// checksum follows on from the one before.
    struct Commit: Equatable {
        /// The frames up to and with the last commit.
        let frames: Int
        /// The database's size in pages, as that commit leaves it.
        let databasePages: UInt32
        let pageSize: Int
    }

    /// Read frame by frame, not mapped: the app may truncate the -wal file meanwhile.
    static func lastCommit(inWALAt walPath: String) -> Commit? {
        guard let wal = FileHandle(forReadingAtPath: walPath) else { return nil }
        defer { try? wal.close() }
        guard let header = try? wal.read(upToCount: 32), header.count == 32 else { return nil }
        let magic = PendingWAL.bigEndian32(header, 0)
        guard PendingWAL.isWALMagic(magic), PendingWAL.bigEndian32(header, 4) == 3_007_000 else { return nil }
        let pageSize = Int(PendingWAL.bigEndian32(header, 8))
        guard pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0 else { return nil }
        // The checksums' words are big-endian where the magic's last bit is set, little-endian otherwise.
        var sums = Checksum(bigEndianWords: magic & 1 == 1)
        sums.add(header, 0, 24)
        guard sums.value == (PendingWAL.bigEndian32(header, 24), PendingWAL.bigEndian32(header, 28)) else { return nil }
        let salts = (PendingWAL.bigEndian32(header, 16), PendingWAL.bigEndian32(header, 20))
        var last: Commit?
        var frame = 0
        while let bytes = try? wal.read(upToCount: 24 + pageSize), bytes.count == 24 + pageSize {
            guard PendingWAL.bigEndian32(bytes, 0) != 0, (PendingWAL.bigEndian32(bytes, 8), PendingWAL.bigEndian32(bytes, 12)) == salts else { break }
            sums.add(bytes, 0, 8)
            sums.add(bytes, 24, pageSize)
            guard sums.value == (PendingWAL.bigEndian32(bytes, 16), PendingWAL.bigEndian32(bytes, 20)) else { break }
            frame += 1
            let pages = PendingWAL.bigEndian32(bytes, 4)
            if pages != 0 { last = Commit(frames: frame, databasePages: pages, pageSize: pageSize) }
        }
        return last
    }

    /// SQLite's running checksum of a -wal file: over pairs of 32-bit words.
    private struct Checksum {
        let bigEndianWords: Bool
        var value: (UInt32, UInt32) = (0, 0)

        mutating func add(_ data: Data, _ start: Int, _ count: Int) {
            var (first, second) = value
            data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                var offset = start
                while offset < start + count {
                    let raw0 = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                    let raw1 = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let word0 = bigEndianWords ? UInt32(bigEndian: raw0) : UInt32(littleEndian: raw0)
                    let word1 = bigEndianWords ? UInt32(bigEndian: raw1) : UInt32(littleEndian: raw1)
                    first = first &+ word0 &+ second
                    second = second &+ word1 &+ first
                    offset += 8
                }
            }
            value = (first, second)
        }
    }
}
