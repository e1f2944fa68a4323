import CacheStore
import XCTest

@testable import CacheQuery

/// A record without `__typename` (written from a response that did not
/// select it) is a miss, as Apollo's generated models select it in every
/// object; a partial read goes on past it. There, with a schema whose field
/// declares an object type, it is of that type; without one its type is
/// unknown, and an inline fragment on a type that it therefore skips is
/// named, not dropped without a word.
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
        let reader = CacheReader(document: document, schema: schema, source: source)
        let miss = try reader.read(try document.operation(named: nil))
        XCTAssertNil(miss.data)
        XCTAssertEqual(miss.misses.map(\.description), [
            "cache miss at viewer.avatar.__typename: record 'User:9.avatar' has no field '__typename', which Apollo's generated models select in every object",
        ])
        let result = try reader.read(try document.operation(named: nil), partial: true)
        XCTAssertEqual(result.data?.foundationObject as? NSDictionary,
                       ["viewer": ["avatar": ["url": "https://img.example.com/9.png"]]] as NSDictionary)
    }

    func testWithoutASchemaAnInlineFragmentItSkipsIsNamed() throws {
        let document = try QueryDocument.parse([("q.graphql", text)])
        let result = try CacheReader(document: document, source: source).read(try document.operation(named: nil), partial: true)
        XCTAssertEqual(result.data?.foundationObject as? NSDictionary, ["viewer": ["avatar": [:]]] as NSDictionary)
        XCTAssertEqual(result.typeConditionsNotApplied,
                       [TypeConditionNotApplied(typeCondition: "Image", typenames: [], metObjectsWithoutTypename: true)])
    }

    /// Each record without a type at which an inline fragment was left out
    /// is counted once, with the first one's place; the root record of an
    /// operation, whose type Apollo knows, is not one.
    func testRecordsWithoutATypeAreCountedOnceWithTheFirstPlace() throws {
        let source = ReadBatchingTests.CountingSource()
        source.add("QUERY_ROOT", ["a": .reference(CacheKey("X:1")), "b": .list([.reference(CacheKey("X:2")), .reference(CacheKey("X:1"))])])
        source.add("X:1", ["name": .string("one")])
        source.add("X:2", ["name": .string("two")])
        let text = "{ ... on Query { a { name } } ... on Mutation { a { name } } a { ... on Image { name } } b { name ... on Video { name } ... on Image { name } } }"
        let document = try QueryDocument.parse([("q.graphql", text)])
        let result = try CacheReader(document: document, source: source).read(try document.operation(named: nil), partial: true)
        XCTAssertEqual(result.untypedObjects?.firstPath, "a")
        XCTAssertEqual(result.untypedObjects?.firstKey, CacheKey("X:1"))
        XCTAssertEqual(result.untypedObjects?.count, 2)
        XCTAssertEqual(result.untypedObjects?.typeConditions, ["Image", "Video"])
        let typed = try CacheReader(document: document, source: self.source).read(
            try QueryDocument.parse([("q.graphql", self.text)]).operation(named: nil), partial: true)
        XCTAssertNotNil(typed.untypedObjects, "User:9.avatar has no type")
        let fragment = try QueryDocument.parse([("f.graphql", "fragment F on X { ... on Image { name } }")])
        let atKey = try CacheReader(document: fragment, source: source).read(try fragment.fragment(named: "F"), key: "X:2", partial: true)
        XCTAssertEqual(atKey.untypedObjects?.firstPath, "", "a fragment's root record is of unknown type too")
    }
}

/// Apollo's generated models merge a fragment on the selection set's own
/// type (or a type it implements) in without a check: its fields are read
/// whatever the `__typename`, also one the app's schema does not know yet.
final class ParentTypeFragmentTests: XCTestCase {
    private let source: ReadBatchingTests.CountingSource = {
        let source = ReadBatchingTests.CountingSource()
        source.add("QUERY_ROOT", ["hero": .reference(CacheKey("Wookiee:1"))])
        source.add("Wookiee:1", ["__typename": .string("Wookiee"), "name": .string("Chewie"), "fur": .string("brown")])
        return source
    }()

    private let schema = try! CacheSchema.parse(
        sdl: "type Query { hero: Character } interface Character { name: String } type Droid implements Character { name: String fur: String }",
        source: "s.graphqls")

    func testAFragmentOnTheFieldsOwnTypeAppliesToATypeTheSchemaDoesNotKnow() throws {
        let text = "{ hero { __typename ...C ... on Character { alias: name } ... on Droid { fur } } } fragment C on Character { name }"
        let document = try QueryDocument.parse([("q.graphql", text)])
        let result = try CacheReader(document: document, schema: schema, source: source).read(try document.operation(named: nil))
        XCTAssertEqual(result.data?.foundationObject as? NSDictionary,
                       ["hero": ["__typename": "Wookiee", "name": "Chewie", "alias": "Chewie"]] as NSDictionary)
    }

    func testWithoutASchemaAnInlineFragmentOnAFragmentsOwnTypeApplies() throws {
        let text = "fragment F on Character { ... on Character { name } ... on Droid { fur } }"
        let document = try QueryDocument.parse([("q.graphql", text)])
        let result = try CacheReader(document: document, source: source).read(try document.fragment(named: "F"), key: "Wookiee:1")
        XCTAssertEqual(result.data?.foundationObject as? NSDictionary, ["name": "Chewie"] as NSDictionary)
    }

    /// The root record has no `__typename`; its type is the operation's
    /// root type, `Query` by GraphQL's default when there is no schema.
    func testWithoutASchemaAnInlineFragmentOnTheRootTypeAppliesAtTheRoot() throws {
        let text = "{ ... on Query { hero { name } } ... on Mutation { hero { fur } } }"
        let document = try QueryDocument.parse([("q.graphql", text)])
        let result = try CacheReader(document: document, source: source).read(try document.operation(named: nil))
        XCTAssertEqual(result.data?.foundationObject as? NSDictionary, ["hero": ["name": "Chewie"]] as NSDictionary)
    }
}
