import CacheStore
import XCTest

@testable import GQLCacheCommands

/// Paths through a record's fields as people type them.
final class FieldPathTests: XCTestCase {
    let record = Record(key: .queryRoot, fields: [
        "hero(episode:JEDI)": .reference("Human:1000"),
        "hero(episode:NEWHOPE)": .reference("Droid:2001"),
        "human(id:1000)": .reference("Human:1000"),
        "grid": .list([.list([.int(1)]), .list([.reference("A:1")])]),
        "search(near:{lat:1.5})": .list([.reference("B:1")]),
    ])

    func testAFieldsCacheKeyMayHoldDotsAndIsFollowedByItsIndexes() {
        XCTAssertEqual(FieldPath.fieldAndIndexes("search(near:{lat:1.5}).0", in: record)?.name, "search(near:{lat:1.5})")
        XCTAssertEqual(FieldPath.fieldAndIndexes("grid.1[0]", in: record)?.indexes, [1, 0])
        XCTAssertNil(FieldPath.fieldAndIndexes("grid.1.x", in: record))
        XCTAssertNil(FieldPath.fieldAndIndexes("grid[1", in: record))
    }

    func testTheFirstStepEndsAtTheDotAfterItsIndexes() throws {
        let step = try XCTUnwrap(FieldPath.firstStep(of: "grid.1.0.friends.2", in: record))
        XCTAssertEqual(step.name, "grid")
        XCTAssertEqual(step.indexes, [1, 0])
        XCTAssertEqual(step.rest, "friends.2")
        XCTAssertNil(try XCTUnwrap(FieldPath.firstStep(of: "grid", in: record)).rest)
        XCTAssertNil(FieldPath.firstStep(of: "gridx", in: record))
        XCTAssertNil(FieldPath.firstStep(of: "grid.", in: record))
    }

    func testANameWithoutArgumentsStandsForTheOneFieldOfThatName() throws {
        let human = try XCTUnwrap(FieldPath.firstStep(of: "human.name", in: record))
        XCTAssertEqual(human.name, "human(id:1000)")
        XCTAssertEqual(human.rest, "name")
        // Two fields named hero: the name alone is neither.
        XCTAssertNil(FieldPath.firstStep(of: "hero.name", in: record))
        XCTAssertEqual(FieldPath.firstStep(of: "hero(episode:JEDI).name", in: record)?.name, "hero(episode:JEDI)")
    }
}
