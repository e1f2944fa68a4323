import CacheStore
import ExampleCaches
import XCTest

final class ExampleCacheTests: CommandTestCase {
    /// The README runs on Examples/blog.sqlite: it must be what the generator
    /// writes today, record for record.
    func testTheShippedExampleIsWhatTheGeneratorWrites() throws {
        let shipped = repositoryRoot.appendingPathComponent("Examples/blog.sqlite").path
        let fresh = path("blog.sqlite")
        try BlogCache(users: 5).write(to: try CacheStore.create(at: fresh))

        func allRecords(_ path: String) throws -> [CacheKey: Record] {
            var records: [CacheKey: Record] = [:]
            try CacheStore.open(at: path).read { tx in
                try tx.forEachRecord { key, result in records[key] = try result.get() }
            }
            return records
        }
        let expected = try allRecords(fresh)
        XCTAssertEqual(expected.count, BlogCache(users: 5).recordCount)
        XCTAssertEqual(try allRecords(shipped), expected, "regenerate with: swift run gqlcache-example Examples/blog.sqlite")
        // Current to the byte, not only as JSON values: regenerating leaves the repository as it was.
        let rows = "SELECT _id, key, record FROM records ORDER BY _id"
        XCTAssertEqual(try sqliteShell(shipped, rows, readOnly: true), try sqliteShell(fresh, rows, readOnly: true),
                       "regenerate with: rm Examples/blog.sqlite && swift run gqlcache-example Examples/blog.sqlite")
    }

    func testTheExampleHasNoDanglingReferences() throws {
        let shipped = repositoryRoot.appendingPathComponent("Examples/blog.sqlite").path
        try CacheStore.open(at: shipped).read { tx in
            var referenced: [CacheKey] = []
            try tx.forEachRecord { _, result in referenced += try result.get().references.map(\.key) }
            XCTAssertFalse(referenced.isEmpty, "the example's records reference one another")
            XCTAssertEqual(try tx.existingKeys(among: referenced), Set(referenced))
        }
    }
}
