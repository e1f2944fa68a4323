import Foundation

/// A rollback journal (`CACHE-journal`) left beside a file that it does not
/// belong to: copied there from another cache. SQLite rolls a hot journal
/// back into the file at the first read by a connection that may write,
/// and one from another database writes that database's pages over this
/// one's, for good. Told apart by the file's first page. SQLite writes it
/// only with the change counter one more than at the transaction's start
/// (and journals it before, with the counter it had): so when the file's
/// counter is the journal copy's, the file's first page is that copy,
/// byte for byte; when one more, the transaction wrote it, and nothing is
/// left to compare. A journal without a copy of the first page belongs to
/// a transaction that never changed it, so neither the file's size nor
/// its page count (every page allocated or freed changes the first page):
/// the page count the journal's header gives is the file's.
struct ForeignJournal: Equatable, CustomStringConvertible {
    /// Why the journal is not this file's.
    let reason: String

    var description: String {
        "the -journal file beside it, which SQLite would roll back into it, is not this file's (\(reason)): "
            + "it came from another cache, and rolling it back would write that cache's pages over this one's; "
            + "move it away (it was left as it is)"
    }

    static let magic: [UInt8] = [0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7]

    /// The mismatch, when `path` has a journal beside it whose copy of
    /// the first page cannot be this file's; nil when there is no journal,
    /// it is not one SQLite would roll back, or it holds no first page to
    /// compare. A journal that changes meanwhile belongs to a transaction
    /// under way (the app's), whose pages may be half written: it is not
    /// called foreign.
    static func check(_ path: String) -> ForeignJournal? {
        guard let found = read(path) else { return nil }
        let before = FileProbe.signature(FileProbe.resolved(path) + "-journal")
        usleep(50_000)
        guard read(path) == found, FileProbe.signature(FileProbe.resolved(path) + "-journal") == before else { return nil }
        return found
    }

    /// True when a journal SQLite may roll back is beside `path`: one
    /// that begins with a journal header.
    static func isPresent(_ path: String) -> Bool {
        guard let journal = FileHandle(forReadingAtPath: FileProbe.resolved(path) + "-journal") else { return false }
        defer { try? journal.close() }
        return (try? journal.read(upToCount: 8)).map { Array($0) == magic } ?? false
    }

    private static func read(_ path: String) -> ForeignJournal? {
        let file = FileProbe.resolved(path)
        guard let journal = FileHandle(forReadingAtPath: file + "-journal") else { return nil }
        defer { try? journal.close() }
        guard let header = try? journal.read(upToCount: 28), header.count == 28, Array(header.prefix(8)) == magic else { return nil }
        func bigEndian(_ bytes: Data, _ offset: Int) -> UInt32 {
            bytes[bytes.startIndex + offset..<bytes.startIndex + offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        let sectorSize = Int(bigEndian(header, 20))
        let pageSize = Int(bigEndian(header, 24))
        // Sizes SQLite takes (powers of two); with others it rolls nothing back.
        guard sectorSize >= 32, sectorSize <= 65_536, sectorSize & (sectorSize - 1) == 0,
            pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0,
            let fileHead = try? FileHandle(forReadingFrom: URL(fileURLWithPath: file)).read(upToCount: 100), fileHead.count == 100
        else { return nil }
        // A journal of another page size is no copy of this file's pages.
        let filePageSize = Int(bigEndian(fileHead, 16) >> 16)
        let fileCounter = bigEndian(fileHead, 24)
        let fileSize = filePageSize == 1 ? 65_536 : filePageSize
        guard fileSize == pageSize else { return ForeignJournal(reason: "its pages are \(pageSize) bytes, the file's \(fileSize)") }
        // The records SQLite would roll back, segment by segment: each
        // segment a header (a sector), then as many records as its count
        // says (all ones: as many as the journal holds, written without
        // syncs), each a page number, the page and a checksum. Records
        // past the count were never synced, so the pages they keep were
        // never written to the file, and SQLite does not roll them back;
        // nor does it any after a count of 0, or from a record whose page
        // number is 0 or the page of SQLite's lock byte on, or whose
        // checksum is wrong (torn); it skips, unchecked, one of a page past
        // the file's size when the transaction began.
        let recordSize = pageSize + 8
        let lockBytePage = UInt32(0x4000_0000 / pageSize + 1)
        let size = (try? FileManager.default.attributesOfItem(atPath: file + "-journal")[.size] as? Int) ?? 0
        var segment = 0
        segments: while segment + 28 <= size {
            guard (try? journal.seek(toOffset: UInt64(segment))) != nil, let head = try? journal.read(upToCount: 28), head.count == 28,
                Array(head.prefix(8)) == magic
            else { break }
            let counted = bigEndian(head, 8)
            let nonce = bigEndian(head, 12)
            let pagesAtStart = bigEndian(head, 16)
            let start = segment + sectorSize
            let held = max(0, (size - start) / recordSize)
            let count = counted == UInt32.max ? held : min(Int(counted), held)
            for index in 0..<count {
                let offset = UInt64(start + index * recordSize)
                guard (try? journal.seek(toOffset: offset)) != nil, let record = try? journal.read(upToCount: recordSize), record.count == recordSize else {
                    return nil
                }
                let number = bigEndian(record, 0)
                guard number != 0, number != lockBytePage else { break segments }
                if number > pagesAtStart { continue }
                // SQLite's checksum: the nonce plus every 200th byte of the page, from the end.
                let checksum = stride(from: pageSize - 200, to: 0, by: -200).reduce(nonce) { $0 &+ UInt32(record[record.startIndex + 4 + $1]) }
                guard checksum == bigEndian(record, 4 + pageSize) else { break segments }
                guard number == 1 else { continue }
                let journalCounter = bigEndian(record, 4 + 24)
                if fileCounter == journalCounter &+ 1 { return nil }
                guard fileCounter == journalCounter else {
                    return ForeignJournal(reason: "its copy of the first page has change counter \(journalCounter), the file \(fileCounter)")
                }
                guard let filePage = try? FileHandle(forReadingFrom: URL(fileURLWithPath: file)).read(upToCount: pageSize), filePage.count == pageSize else {
                    return nil
                }
                return filePage == record.dropFirst(4).prefix(pageSize)
                    ? nil : ForeignJournal(reason: "its copy of the first page has the file's change counter, \(fileCounter), but other content")
            }
            if counted == 0 || counted == UInt32.max { break segments }
            // The next header starts at the sector after the records.
            segment = (start + count * recordSize + sectorSize - 1) / sectorSize * sectorSize
        }
        // No copy of the first page: the file has as many pages as when the
        // transaction began, by its header (when valid: its version-valid-for
        // number is its change counter) or by its size.
        let originalPages = Int(bigEndian(header, 16))
        let headerPages = Int(bigEndian(fileHead, 28))
        let headerValid = bigEndian(fileHead, 92) == fileCounter && headerPages > 0
        let sizePages = Int(FileProbe.signature(file)?.size ?? 0) / pageSize
        guard originalPages > 0, originalPages != sizePages, !headerValid || originalPages != headerPages else { return nil }
        return ForeignJournal(reason: "it was written for a file of \(originalPages) pages, and the file has \(headerValid ? headerPages : sizePages)")
    }
}
