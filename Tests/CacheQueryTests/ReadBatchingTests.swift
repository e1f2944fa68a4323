import CacheStore
import XCTest

@testable import CacheQuery

/// A typed read loads a list's records in batches, looking one level ahead,
/// as Apollo's loader does: a few lookups, not one per record.
final class ReadBatchingTests: XCTestCase {
    /// Records in memory that count how they are asked for.
    final class CountingSource: RecordSource {
        var records: [CacheKey: Record] = [:]
        var singleLookups = 0
        var batchLookups = 0

        func record(for key: CacheKey) throws -> Record? {
            singleLookups += 1
            return records[key]
        }

        func records(for keys: [CacheKey]) throws -> [CacheKey: Result<Record, CacheStoreError>] {
            batchLookups += 1
            return records.filter { keys.contains($0.key) }.mapValues { .success($0) }
        }

        func add(_ key: String, _ fields: [String: FieldValue]) {
            records[CacheKey(key)] = Record(key: CacheKey(key), fields: fields)
        }
    }

    func testUsersAndTheirPostsLoadInTwoBatchesAfterTheRoot() throws {
        let source = CountingSource()
        source.add("QUERY_ROOT", ["users": .list((1...50).map { .reference(CacheKey("User:\($0)")) })])
        for user in 1...50 {
            source.add("User:\(user)", ["__typename": .string("User"), "name": .string("u\(user)"),
                                        "posts(first:2)": .list([.reference(CacheKey("Post:\(user).1")), .reference(CacheKey("Post:\(user).2"))])])
            for post in 1...2 { source.add("Post:\(user).\(post)", ["__typename": .string("Post"), "title": .string("t")]) }
        }
        let document = try QueryDocument.parse([("q.graphql", "{ users { name posts(first: 2) { title } } }")])
        let result = try CacheReader(document: document, source: source).read(try document.operation(named: nil))
        XCTAssertEqual(result.misses, [])
        guard case .object(let root)? = result.data, case .list(let users) = root[0].1 else { return XCTFail("no users") }
        XCTAssertEqual(users.count, 50)
        XCTAssertEqual(source.singleLookups, 1, "only the root is looked up alone")
        XCTAssertEqual(source.batchLookups, 2, "the users, then every user's posts")
    }

    func testADanglingReferenceInABatchIsStillAMissAtItsIndex() throws {
        let source = CountingSource()
        source.add("QUERY_ROOT", ["users": .list([.reference(CacheKey("User:1")), .reference(CacheKey("User:2"))])])
        source.add("User:1", ["__typename": .string("User"), "name": .string("a")])
        let document = try QueryDocument.parse([("q.graphql", "{ users { name } }")])
        let result = try CacheReader(document: document, source: source).read(try document.operation(named: nil), partial: true)
        XCTAssertEqual(result.misses.map(\.description), ["cache miss at users.1: no record 'User:2' (field 'users' of QUERY_ROOT refers to it)"])
    }
}
