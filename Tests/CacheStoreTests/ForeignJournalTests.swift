import Foundation
import XCTest

@testable import CacheStore

/// Which -journal files beside a cache are its own (rolled back by SQLite)
/// and which came from another cache (refused), on journals written here
/// byte by byte as SQLite writes them: segments of a header (a sector)
/// and records (page number, page, checksum).
final class ForeignJournalTests: XCTestCase {
    private let pageSize = 4096
    private let sector = 512

    private func bigEndian(_ value: Int) -> Data { withUnsafeBytes(of: UInt32(value).bigEndian) { Data($0) } }

    private let nonce = 7

    /// SQLite's checksum of a journal record: the nonce plus every 200th byte of the page, from the end.
    private func checksum(_ page: Data) -> Int {
        stride(from: pageSize - 200, to: 0, by: -200).reduce(nonce) { ($0 + Int(page[page.startIndex + $1])) & 0xFFFF_FFFF }
    }

    /// A journal of `segments`, each a list of (page number, page bytes),
    /// begun on a file of `originalPages` pages; `torn`: the page numbers
    /// whose record has a wrong checksum.
    private func journal(originalPages: Int, _ segments: [[(number: Int, page: Data)]], torn: Set<Int> = []) -> Data {
        var data = Data()
        for records in segments {
            var header = Data([0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7])
            header += bigEndian(records.count) + bigEndian(nonce) + bigEndian(originalPages) + bigEndian(sector) + bigEndian(pageSize)
            data += header + Data(count: sector - header.count)
            for record in records {
                data += bigEndian(record.number) + record.page + bigEndian(checksum(record.page) + (torn.contains(record.number) ? 1 : 0))
            }
            data += Data(count: (sector - data.count % sector) % sector)
        }
        return data
    }

    private func page(_ number: Int, of file: Data) -> Data { file.subdata(in: (number - 1) * pageSize..<number * pageSize) }

    /// The file's first page with a change counter no copy of its own has: another file's.
    private func anotherFilesFirstPage(like file: Data) -> Data {
        var first = page(1, of: file)
        first.replaceSubrange(24..<28, with: bigEndian(999))
        return first
    }

    private func cache(in folder: TemporaryDirectory) throws -> (path: String, bytes: Data) {
        let path = folder.path("cache.sqlite")
        let store = try CacheStore.create(at: path)
        try store.write { tx in
            try tx.merge((1...200).map { Record(key: CacheKey("User:\($0)"), fields: ["name": .string(String(repeating: "u", count: 100))]) })
        }
        return (path, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// A write killed after its second sync: the first page's copy is in
    /// the second segment, and the file's first page was written since,
    /// with the counter one more and a new page count. It is this file's.
    /// A -journal, -wal or -shm beside the file that is no regular file (a
    /// FIFO, on which SQLite would wait for ever; /dev/null through a link)
    /// is refused at once, for reading and writing, and left where it is.
    func testASideFileThatIsNoRegularFileIsRefusedAtOnce() throws {
        let folder = try TemporaryDirectory(self)
        let (path, original) = try cache(in: folder)
        for suffix in CacheStore.sideFileSuffixes {
            XCTAssertEqual(mkfifo(path + suffix, 0o644), 0)
            for access in [CacheStore.Access.readOnly, .readWrite] {
                XCTAssertThrowsError(try CacheStore.open(at: path, access: access)) { error in
                    XCTAssertEqual(error as? CacheStoreError, .io(path: path, message: "its \(suffix) beside it is a FIFO, not a file SQLite can use "
                        + "(it would wait on it, or fail); remove cache.sqlite\(suffix) if nothing else uses it"))
                }
            }
            try FileManager.default.removeItem(atPath: path + suffix)
        }
        try FileManager.default.createSymbolicLink(atPath: path + "-journal", withDestinationPath: "/dev/null")
        XCTAssertThrowsError(try CacheStore.open(at: path, access: .readWrite))
        XCTAssertEqual(FileManager.default.contents(atPath: path), original)
        // Nor is a new file made beside one: SQLite removed the FIFO without a word.
        let new = folder.path("new.sqlite")
        XCTAssertEqual(mkfifo(new + "-journal", 0o644), 0)
        XCTAssertThrowsError(try CacheStore.create(at: new))
        XCTAssertFalse(FileManager.default.fileExists(atPath: new))
        XCTAssertTrue(FileManager.default.fileExists(atPath: new + "-journal"))
    }

    /// A -journal (or -wal) that is a symbolic link SQLite does not open,
    /// whatever it names: a write is refused at once, naming the link and
    /// where it leads, not "unable to open database file". A read is
    /// refused only where SQLite would take it for an unfinished write's
    /// (it names a file with bytes); one that leads nowhere is read past.
    func testASideFileThatIsASymbolicLinkIsNamedWhereSQLiteWouldFail() throws {
        let folder = try TemporaryDirectory(self)
        let (path, original) = try cache(in: folder)
        for (suffix, target) in [("-journal", "cache.sqlite"), ("-wal", "cache.sqlite"), ("-journal", "/nonexistent/j")] {
            try FileManager.default.createSymbolicLink(atPath: path + suffix, withDestinationPath: target)
            let refusal = CacheStoreError.io(path: path, message: "its \(suffix) beside it is a symbolic link (to \"\(target)\"), which SQLite does not "
                + "open, so no write can be made and it is taken for an unfinished write's; remove cache.sqlite\(suffix) (the link) if nothing else uses it")
            XCTAssertThrowsError(try CacheStore.open(at: path, access: .readWrite)) { XCTAssertEqual($0 as? CacheStoreError, refusal) }
            if target.hasPrefix("/") {
                XCTAssertEqual(try CacheStore.open(at: path, access: .readOnly).read { try $0.keys().count }, 200)
            } else {
                XCTAssertThrowsError(try CacheStore.open(at: path, access: .readOnly)) { XCTAssertEqual($0 as? CacheStoreError, refusal) }
            }
            try FileManager.default.removeItem(atPath: path + suffix)
        }
        XCTAssertEqual(FileManager.default.contents(atPath: path), original)
    }

    func testAFirstPageCopiedInALaterSegmentIsFound() throws {
        let folder = try TemporaryDirectory(self)
        let (path, original) = try cache(in: folder)
        let pages = original.count / pageSize
        var written = original + Data(count: 2 * pageSize)
        let counter = original[24..<28].reduce(0) { $0 << 8 | Int($1) }
        written.replaceSubrange(24..<28, with: bigEndian(counter + 1))
        written.replaceSubrange(28..<32, with: bigEndian(pages + 2))
        written.replaceSubrange(92..<96, with: bigEndian(counter + 1))
        try written.write(to: URL(fileURLWithPath: path))
        let segments = [[(number: 2, page: page(2, of: original))], [(number: 1, page: page(1, of: original))]]
        try journal(originalPages: pages, segments).write(to: URL(fileURLWithPath: path + "-journal"))
        XCTAssertNil(ForeignJournal.check(path))
        // Beside a file of another page count, with the copy nowhere, it is another cache's.
        try journal(originalPages: pages, [[(number: 2, page: page(2, of: original))]]).write(to: URL(fileURLWithPath: path + "-journal"))
        XCTAssertEqual(ForeignJournal.check(path)?.reason, "it was written for a file of \(pages) pages, and the file has \(pages + 2)")
    }

    /// Records past a segment's count were never synced: SQLite does not
    /// roll them back, and a first page among them says nothing.
    func testAFirstPageCopyPastTheSyncedRecordsIsNotTakenForTheFiles() throws {
        let (path, original) = try cache(in: try TemporaryDirectory(self))
        let pages = original.count / pageSize
        let stale = anotherFilesFirstPage(like: original)
        var data = journal(originalPages: pages, [[(number: 2, page: page(2, of: original))]])
        data += bigEndian(1) + stale + bigEndian(0)
        try data.write(to: URL(fileURLWithPath: path + "-journal"))
        XCTAssertNil(ForeignJournal.check(path), "the file's page count is the journal's, and the copy past the count is not rolled back")
    }

    /// SQLite stops rolling back at a torn record (its checksum wrong): a
    /// first page's copy after one is not rolled back, and says nothing;
    /// before one, it is compared.
    func testAFirstPageCopyAfterATornRecordIsNotTakenForTheFiles() throws {
        let (path, original) = try cache(in: try TemporaryDirectory(self))
        let pages = original.count / pageSize
        let stale = anotherFilesFirstPage(like: original)
        let records = [(number: 2, page: page(2, of: original)), (number: 1, page: stale)]
        try journal(originalPages: pages, [records], torn: [2]).write(to: URL(fileURLWithPath: path + "-journal"))
        XCTAssertNil(ForeignJournal.check(path))
        try journal(originalPages: pages, [records]).write(to: URL(fileURLWithPath: path + "-journal"))
        XCTAssertNotNil(ForeignJournal.check(path), "whole, the record's counter is another file's")
        // A record of a page past the file's size at the start SQLite skips
        // unchecked, and goes on to the first page's copy.
        let past = [(number: pages + 5, page: page(2, of: original)), (number: 1, page: stale)]
        try journal(originalPages: pages, [past], torn: [pages + 5]).write(to: URL(fileURLWithPath: path + "-journal"))
        XCTAssertNotNil(ForeignJournal.check(path))
    }

    /// A journal whose header gives a page size SQLite does not take (not
    /// a power of two) is rolled back by no one: it is not called another
    /// cache's, and SQLite's own answer stands.
    func testAJournalOfAPageSizeSQLiteDoesNotTakeIsNotCalledAnotherCaches() throws {
        let (path, _) = try cache(in: try TemporaryDirectory(self))
        var header = Data([0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7])
        header += bigEndian(1) + bigEndian(nonce) + bigEndian(2) + bigEndian(sector) + bigEndian(3000)
        try (header + Data(count: sector - header.count + 3008)).write(to: URL(fileURLWithPath: path + "-journal"))
        XCTAssertNil(ForeignJournal.check(path))
    }
}
