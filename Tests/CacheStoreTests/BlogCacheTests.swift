import CacheStore
import ExampleCaches
import Foundation
import XCTest

/// ExampleCaches.BlogCache through the store: deterministic files whose
/// record count is what the example announces.
final class BlogCacheTests: XCTestCase {

    private func write(_ blog: BlogCache, to name: String, in directory: TemporaryDirectory) throws -> CacheStore {
        let store = try CacheStore.create(at: directory.path(name))
        try blog.write(to: store)
        return store
    }

    func testWritingTheSameBlogTwiceGivesIdenticalRecordSets() throws {
        let directory = try TemporaryDirectory(self)
        let blog = BlogCache(users: 5)
        let first = try write(blog, to: "first.sqlite", in: directory)
        let second = try write(blog, to: "second.sqlite", in: directory)
        let firstRecords = try first.allRecords()
        XCTAssertEqual(firstRecords, try second.allRecords())
        XCTAssertEqual(firstRecords.count, 32)
        // Byte for byte too: the writer orders members, so the text is stable.
        let dump = "SELECT key, hex(record) FROM records ORDER BY key"
        XCTAssertEqual(try SQLiteShell.run(first.path, dump), try SQLiteShell.run(second.path, dump))
    }

    func testBlogRecordCountMatchesTheStoresRecordCount() throws {
        let directory = try TemporaryDirectory(self)
        let blog = BlogCache(users: 5)
        let store = try write(blog, to: "blog.sqlite", in: directory)
        XCTAssertEqual(blog.recordCount, 32)
        XCTAssertEqual(try store.read { try $0.recordCount() }, blog.recordCount)
        var produced = 0
        try blog.records { _ in produced += 1 }
        XCTAssertEqual(produced, blog.recordCount)
    }

    func testSmallBlogsAlsoWriteTheAnnouncedNumberOfRecords() throws {
        let directory = try TemporaryDirectory(self)
        for (index, blog) in [BlogCache(users: 1), BlogCache(users: 3, postsPerUser: 1, commentsPerPost: 0, avatars: false),
                              BlogCache(users: 2, postsPerUser: 3, commentsPerPost: 2)].enumerated() {
            let store = try write(blog, to: "blog\(index).sqlite", in: directory)
            XCTAssertEqual(try store.read { try $0.recordCount() }, blog.recordCount,
                           "BlogCache(users: \(blog.users), postsPerUser: \(blog.postsPerUser), commentsPerPost: \(blog.commentsPerPost), avatars: \(blog.avatars))")
        }
    }

    func testWritingInSmallBatchesGivesTheSameFileContents() throws {
        let directory = try TemporaryDirectory(self)
        let blog = BlogCache(users: 5)
        let whole = try write(blog, to: "whole.sqlite", in: directory)
        let batched = try CacheStore.create(at: directory.path("batched.sqlite"))
        try blog.write(to: batched, batchSize: 3)
        XCTAssertEqual(try whole.allRecords(), try batched.allRecords())
    }

    func testEveryBlogReferencePointsAtARecordThatExists() throws {
        let directory = try TemporaryDirectory(self)
        let store = try write(BlogCache(users: 5), to: "blog.sqlite", in: directory)
        let records = try store.allRecords()
        var referenceCount = 0
        for record in records.values {
            for reference in record.references {
                referenceCount += 1
                XCTAssertNotNil(records[reference.key], "\(record.key).\(reference.field) dangles to \(reference.key)")
            }
        }
        XCTAssertGreaterThan(referenceCount, 30)
        XCTAssertEqual(try store.read { try $0.existingRoots() }, [.queryRoot, .mutationRoot])
        XCTAssertEqual(try store.read { try $0.census(largest: 0, damagedKeys: 1).damagedCount }, 0)
    }

    func testDirectoryListsTheFirstUsersInQueryRootAndAddsNoRecord() throws {
        let directory = try TemporaryDirectory(self)
        let blog = BlogCache(users: 5, postsPerUser: 5, directory: 3)
        let store = try write(blog, to: "directory.sqlite", in: directory)
        let records = try store.allRecords()
        XCTAssertEqual(records.count, blog.recordCount)
        XCTAssertEqual(blog.recordCount, BlogCache(users: 5, postsPerUser: 5).recordCount)
        let root = try XCTUnwrap(records[.queryRoot])
        XCTAssertEqual(root["users(first:3)"], .list([.reference("User:1"), .reference("User:2"), .reference("User:3")]))
        for user in 1...3 {
            let record = try XCTUnwrap(records[CacheKey("User:\(user)")])
            let posts = try XCTUnwrap(record["posts(first:5)"]).references
            XCTAssertEqual(posts.count, 5)
            for post in posts {
                if case .string? = records[post]?["title"] {} else { XCTFail("\(post) has no title") }
            }
        }
    }

    func testDirectoryLongerThanTheUsersListsEveryUserAndIsOffByDefault() throws {
        let directory = try TemporaryDirectory(self)
        let long = try write(BlogCache(users: 2, directory: 10), to: "long.sqlite", in: directory)
        let root = try XCTUnwrap(try long.read { try $0.record(for: .queryRoot) })
        XCTAssertEqual(root["users(first:10)"], .list([.reference("User:1"), .reference("User:2")]))
        let plain = try write(BlogCache(users: 5), to: "plain.sqlite", in: directory)
        let plainRoot = try XCTUnwrap(try plain.read { try $0.record(for: .queryRoot) })
        XCTAssertFalse(plainRoot.fields.keys.contains { $0.hasPrefix("users(") }, "\(plainRoot.fields.keys.sorted())")
    }

    func testBlogTextsWithSlashesAndQuotesAreStoredAsApolloWouldWriteThem() throws {
        let directory = try TemporaryDirectory(self)
        let store = try write(BlogCache(users: 5), to: "blog.sqlite", in: directory)
        let comment = try XCTUnwrap(try store.read { try $0.record(for: "Comment:7") })
        XCTAssertEqual(comment["text"], .string("Nice / \"quoted\" é"))
        let raw = try XCTUnwrap(try SQLiteShell.row(store.path, key: "Comment:7")).record
        XCTAssertTrue(raw.contains(#""text":"Nice \/ \"quoted\" é""#), raw)
        XCTAssertEqual(comment["editedAt"], .null)
    }
}
