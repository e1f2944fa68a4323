import CacheStore
import XCTest

@testable import CacheQuery

/// A record without `__typename` (written from a response that did not
/// select it): with a schema whose field declares an object type, it is of
/// that type; without one its type is unknown, and an inline fragment on a
/// type that it therefore skips is named, not dropped without a word.
final class UntypedObjectTests: XCTestCase {
    private let source: ReadBatchingTests.CountingSource = {
        let source = ReadBatchingTests.CountingSource()
        source.add("QUERY_ROOT", ["viewer": .reference(CacheKey("User:9"))])
        source.add("User:9", ["__typename": .string("User"), "avatar": .reference(CacheKey("User:9.avatar"))])
        source.add("User:9.avatar", ["url": .string("https://img.example.com/9.png")])
        return source
    }()

    private let text = "{ viewer { avatar { ... on Image { url } } } }"

    func testWithASchemaAnObjectTakesTheObjectTypeItsFieldDeclares() throws {
        let schema = try CacheSchema.parse(
            sdl: "type Query { viewer: User } type User { avatar: Image } type Image { url: String }", source: "s.graphqls")
        let document = try QueryDocument.parse([("q.graphql", text)])
        let result = try CacheReader(document: document, schema: schema, source: source).read(try document.operation(named: nil))
        XCTAssertEqual(result.data?.foundationObject as? NSDictionary,
                       ["viewer": ["avatar": ["url": "https://img.example.com/9.png"]]] as NSDictionary)
    }

    func testWithoutASchemaAnInlineFragmentItSkipsIsNamed() throws {
        let document = try QueryDocument.parse([("q.graphql", text)])
        let result = try CacheReader(document: document, source: source).read(try document.operation(named: nil))
        XCTAssertEqual(result.data?.foundationObject as? NSDictionary, ["viewer": ["avatar": [:]]] as NSDictionary)
        XCTAssertEqual(result.typeConditionsNotApplied,
                       [TypeConditionNotApplied(typeCondition: "Image", typenames: [], metObjectsWithoutTypename: true)])
    }
}
