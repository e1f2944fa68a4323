import Foundation
import XCTest

@testable import CacheStore

/// A store of a process that leaves its teardown to the exit (the
/// executable) still closes its connection when it goes: no file it held
/// stays open, and so no lock.
final class ExitTeardownTests: XCTestCase {
    override func tearDown() {
        CacheStore.leavesTeardownToExit = false
        super.tearDown()
    }

    /// How many of this process's file descriptors are open on `path`.
    private func descriptors(on path: String) throws -> Int {
        let folder = "/proc/self/fd"
        guard FileManager.default.fileExists(atPath: folder) else { throw XCTSkip("needs \(folder)") }
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)")) == target
        }.count
    }

    func testAStoreWhoseTeardownIsLeftToTheExitStillClosesItsFileWhenItGoes() throws {
        CacheStore.leavesTeardownToExit = true
        let folder = try TemporaryDirectory(self)
        let path = try folder.copy(Fixtures.starwars)
        var reader: CacheStore? = try CacheStore.open(at: path)
        XCTAssertNotNil(try reader?.read { tx in try tx.record(for: "Droid:2001") })
        XCTAssertEqual(try descriptors(on: path), 1)
        reader = nil
        XCTAssertEqual(try descriptors(on: path), 0)

        var writer: CacheStore? = try CacheStore.open(at: path, access: .readWrite)
        try writer?.write { tx in try tx.unsafeWriteRawRecord(key: "New:1", text: "{}") }
        // A write reads the file's header too, through a descriptor kept while
        // the store holds the file (closing one would drop SQLite's locks).
        XCTAssertEqual(try descriptors(on: path), 2)
        writer = nil
        XCTAssertEqual(try descriptors(on: path), 0)
    }
}
