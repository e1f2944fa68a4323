import Foundation
import XCTest

@testable import CacheStore

/// Committed changes still in the -wal file are found, from the -shm
/// index or, without one, from the -wal file's frames.
final class PendingWALTests: XCTestCase {
    func testChangesInTheWALOfAnOpenConnectionArePendingUntilItCloses() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.walCopy(Fixtures.starwars)
        XCTAssertNil(PendingWAL.inspect(path: path))
        var writer: CacheStore? = try CacheStore.open(at: path, access: .readWrite)
        try writer!.write { tx in try tx.unsafeWriteRawRecord(key: "New:1", text: "{}") }
        let pending = try XCTUnwrap(PendingWAL.inspect(path: path))
        XCTAssertGreaterThan(pending.frames, 0)
        XCTAssertEqual(pending.walBytes, FileSizes(path: path).wal)

        // The same -wal file with no -shm beside it: the frames are counted.
        let copy = folder.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
        XCTAssertEqual(PendingWAL.inspect(path: copy)?.frames, pending.frames)

        writer = nil  // closing the last connection checkpoints
        XCTAssertNil(PendingWAL.inspect(path: path))
    }
}
