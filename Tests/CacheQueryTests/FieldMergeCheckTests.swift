import CacheStore
import XCTest

@testable import CacheQuery

/// Fields sharing a response name must be mergeable, as graphql-js (which
/// Apollo's code generator runs) demands; otherwise a read or write would
/// take one and drop the others without a word.
final class FieldMergeCheckTests: XCTestCase {
    private func read(_ text: String, schema: CacheSchema? = nil) throws -> ReadResult {
        let document = try QueryDocument.parse([("q.graphql", text)])
        let store = try CacheStore.open(at: CacheReaderTests.fixture)
        return try store.read { tx in
            try CacheReader(document: document, schema: schema, source: tx).read(try document.operation(named: nil))
        }
    }

    private func assertConflict(_ text: String, schema: CacheSchema? = nil, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try read(text, schema: schema), file: file, line: line) { error in
            guard case .validation? = error as? QueryError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual("\(error)", message, file: file, line: line)
        }
    }

    func testOneResponseNameForTwoDifferentFieldsIsRefusedWithBothPlaces() {
        assertConflict(
            "{ hero(episode: NEWHOPE) { name: id } hero(episode: NEWHOPE) {\n  name } }",
            "q.graphql:2:3: fields 'hero.name' conflict: 'id' and 'name' are different fields (the other is at 1:28); give them different aliases to read both")
        assertConflict(
            "{ hero(episode: NEWHOPE) { name } hero: human(id: 1000) { name } }",
            "q.graphql:1:35: fields 'hero' conflict: 'hero' and 'human' are different fields (the other is at 1:3); give them different aliases to read both")
    }

    func testOneFieldWithTwoSetsOfArgumentsIsRefusedNotReadOnce() {
        // Without the rule the read looked up hero(episode:NEWHOPE) only and
        // called the plain `hero`, which the file lacks, a hit.
        assertConflict(
            "{ hero(episode: NEWHOPE) { name } hero { name } }",
            "q.graphql:1:35: fields 'hero' conflict: they have different arguments (the other is at 1:3); give them different aliases to read both")
        assertConflict(
            "query Q($a: Episode, $b: Episode) { hero(episode: $a) { name } hero(episode: $b) { name } }",
            "q.graphql:1:64: fields 'hero' conflict: they have different arguments (the other is at 1:37); give them different aliases to read both")
    }

    func testConflictsInsideFragmentsAndAcrossFilesAreFound() throws {
        // Only the schema tells that Character and Droid may be one object.
        let spread = "{ hero(episode: NEWHOPE) { ...F ... on Droid { name: primaryFunction } } } fragment F on Character { name }"
        XCTAssertNoThrow(try read(spread))
        assertConflict(
            spread, schema: CacheReaderTests.schema,
            "q.graphql:1:48: fields 'name' conflict: 'name' and 'primaryFunction' are different fields (the other is at 1:102); give them different aliases to read both")
        let document = try QueryDocument.parse([
            ("op.graphql", "{ hero(episode: NEWHOPE) { ...F name: id } }"), ("f.graphql", "fragment F on Character { name }"),
        ])
        XCTAssertThrowsError(try ResponseNormalizer(document: document).normalize(
            try document.operation(named: nil), data: .object(["hero": .null]))) { error in
            XCTAssertEqual("\(error)", "op.graphql:1:33: fields 'name' conflict: 'name' and 'id' are different fields (the other is at f.graphql:1:27); give them different aliases to read both")
        }
    }

    func testSubfieldsOfTwoMergedFieldsMustMergeToo() {
        assertConflict(
            "{ hero(episode: NEWHOPE) { friends { name } ... on Droid { friends { name: id } } } }",
            "q.graphql:1:70: fields 'friends.name' conflict: 'name' and 'id' are different fields (the other is at 1:38); give them different aliases to read both")
        assertConflict(
            "{ hero(episode: NEWHOPE) { x: friends { name } x: name } }",
            "q.graphql:1:48: fields 'x' conflict: 'friends' and 'name' are different fields (the other is at 1:28); give them different aliases to read both")
    }

    func testFieldsOfOneNameAndArgumentsMergeTheirSelections() throws {
        let result = try read("{ hero(episode: NEWHOPE) { name } hero(episode: NEWHOPE) { id } hero(episode: NEWHOPE) { name } }")
        XCTAssertEqual(result.data, .object([("hero", .object([("name", .scalar(.string("R2-D2"))), ("id", .scalar(.string("2001")))]))]))
    }

    func testFragmentsOnTwoObjectTypesMayGiveOneNameToDifferentFieldsOfOneShape() throws {
        let text = "{ hero(episode: NEWHOPE) { ... on Human { x: homePlanet } ... on Droid { x: primaryFunction } } }"
        XCTAssertEqual(try read(text).data, .object([("hero", .object([("x", .scalar(.string("Astromech")))]))]))
        // Where one field's type is String! and the other's String, or one
        // is a Float, the shapes conflict; only the schema can tell.
        assertConflict(
            "{ hero(episode: NEWHOPE) { ... on Human { x: height } ... on Droid { x: primaryFunction } } }", schema: CacheReaderTests.schema,
            "q.graphql:1:70: fields 'x' conflict: they return conflicting types Float and String (the other is at 1:43); give them different aliases to read both")
        // An interface beside one of its object types may be the same object.
        assertConflict(
            "{ hero(episode: NEWHOPE) { ... on Character { x: id } ... on Droid { x: primaryFunction } } }", schema: CacheReaderTests.schema,
            "q.graphql:1:70: fields 'x' conflict: 'id' and 'primaryFunction' are different fields (the other is at 1:47); give them different aliases to read both")
    }

    func testIncludeAndSkipDoNotExemptAConflictAsInGraphQLJS() {
        assertConflict(
            "{ hero(episode: NEWHOPE) { name @include(if: false) name: id @skip(if: true) } }",
            "q.graphql:1:53: fields 'name' conflict: 'name' and 'id' are different fields (the other is at 1:28); give them different aliases to read both")
    }

    func testAnInputObjectWrittenInAnotherOrderIsAnotherArgumentAsInGraphQLJS() {
        XCTAssertTrue(FieldMergeCheck.sameArguments(
            [("a", .int("1")), ("b", .list([.string("x")]))], [("b", .list([.string("x")])), ("a", .int("1"))]))
        XCTAssertFalse(FieldMergeCheck.sameArguments(
            [("f", .object([("a", .int("1")), ("b", .int("2"))]))], [("f", .object([("b", .int("2")), ("a", .int("1"))]))]))
        XCTAssertFalse(FieldMergeCheck.sameArguments([("a", .int("1"))], [("a", .float("1.0"))]))
    }
}
