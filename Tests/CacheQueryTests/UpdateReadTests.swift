import CacheStore
import XCTest

@testable import CacheQuery

/// Apollo's `ReadWriteTransaction.update` reads with its mapper's
/// `allowForOptionalFields`: a nullable field the record lacks is left out
/// of the data instead of failing the read; a non-null one still fails it,
/// and a plain read misses on either.
final class UpdateReadTests: XCTestCase {
    private let schema = try! CacheSchema.parse(
        sdl: "type Query { viewer: User } type User { name: String! nickname: String friends: [User] }", source: "s.graphqls")

    private func source(_ user: [String: FieldValue]) -> ReadBatchingTests.CountingSource {
        let source = ReadBatchingTests.CountingSource()
        source.add("QUERY_ROOT", ["viewer": .reference(CacheKey("User:1"))])
        source.add("User:1", user)
        return source
    }

    private func read(_ user: [String: FieldValue], schema: CacheSchema?, forUpdate: Bool) throws -> ReadResult {
        let document = try QueryDocument.parse([("q.graphql", "{ viewer { name nickname friends { name } } }")])
        return try CacheReader(document: document, schema: schema, source: source(user))
            .read(try document.operation(named: nil), forUpdate: forUpdate)
    }

    func testReadingForAnUpdateLeavesOutMissingNullableFieldsAndNamesThem() throws {
        let result = try read(["__typename": .string("User"), "name": .string("Ann")], schema: schema, forUpdate: true)
        XCTAssertEqual(result.misses, [])
        XCTAssertEqual(result.data?.foundationObject as? NSDictionary, ["viewer": ["name": "Ann"]] as NSDictionary)
        XCTAssertEqual(result.absentFields, ["viewer.nickname", "viewer.friends"])
        XCTAssertEqual(result.existingObjects.absent, ["viewer.nickname", "viewer.friends"])
    }

    func testAMissingNonNullFieldIsStillAMissWhenReadingForAnUpdate() throws {
        let result = try read(["__typename": .string("User"), "nickname": .string("A")], schema: schema, forUpdate: true)
        XCTAssertNil(result.data)
        XCTAssertEqual(result.misses.map(\.description), ["cache miss at viewer.name: record 'User:1' has no field 'name'"])
    }

    func testAPlainReadOrOneWithoutASchemaMissesOnAMissingNullableField() throws {
        let user: [String: FieldValue] = ["__typename": .string("User"), "name": .string("Ann")]
        for result in [try read(user, schema: schema, forUpdate: false), try read(user, schema: nil, forUpdate: true)] {
            XCTAssertNil(result.data)
            XCTAssertEqual(result.misses.map(\.description), ["cache miss at viewer.nickname: record 'User:1' has no field 'nickname'"])
            XCTAssertEqual(result.absentFields, [])
        }
    }

    func testAnAbsentFieldMayBeSetWholeButNotReachedInto() throws {
        let data: ResponseValue = .object([("viewer", .object([("name", .scalar(.string("Ann")))]))])
        let absent: Set<String> = ["viewer.nickname", "viewer.friends"]
        let set = try data.setting(["viewer", "nickname"], to: .scalar(.string("A")), absent: absent)
        XCTAssertEqual(set.value(at: ["viewer", "nickname"]), .scalar(.string("A")))
        XCTAssertThrowsError(try data.setting(["viewer", "friends", "0"], to: .null, absent: absent)) { error in
            XCTAssertEqual((error as? DataPathError)?.description, "viewer.friends is not in the cache; set it whole (--set viewer.friends=…)")
        }
        XCTAssertThrowsError(try data.setting(["viewer", "nick"], to: .null, absent: absent))
        XCTAssertNil(data.problem(writing: .object(["viewer": .object(["name": .string("B"), "nickname": .string("A")])]), absent: absent))
        XCTAssertEqual(
            data.problem(writing: .object(["viewer": .object(["name": .string("B"), "nick": .string("A")])]), absent: absent),
            "viewer has no 'nick' in the selection (it has: name)")
    }

    /// A custom scalar's JSON is the app's: a leaf read as an object may be
    /// written as anything, and with a schema every leaf is left to its
    /// declared type's check.
    func testACustomScalarLeafMayChangeShape() {
        let data: ResponseValue = .object([("meta", .scalar(.object(["a": .int(1)]))), ("name", .scalar(.string("x")))])
        XCTAssertNil(data.problem(writing: .object(["meta": .string("plain"), "name": .string("y")])))
        XCTAssertEqual(data.problem(writing: .object(["meta": .int(1), "name": .list([])])),
                       "name is a single value in the data read, and cannot be written as a list")
        XCTAssertNil(data.problem(writing: .object(["meta": .int(1), "name": .object([:])]), checkingLeaves: false))
    }

    /// A list of leaves, `[[Float!]!]`, keeps its depth element by element,
    /// and an element appended takes the shape of the first one read.
    func testEachElementOfAListOfLeavesKeepsItsShape() {
        let read = FieldValue.list([.list([.int(1), .int(2)]), .list([.double(3.5), .int(4)])])
        let data: ResponseValue = .object([("coordinates", .scalar(read))])
        func problem(_ written: FieldValue) -> String? { data.problem(writing: .object(["coordinates": written])) }
        XCTAssertEqual(problem(.list([.int(5), .list([.double(3.5), .int(4)])])),
                       "coordinates.0 is a list in the data read, and cannot be written as a single value")
        XCTAssertEqual(problem(.list([.list([.int(1)]), .object(["a": .int(1)])])),
                       "coordinates.1 is a list in the data read, and cannot be written as an object")
        XCTAssertEqual(problem(.list([.list([.list([.int(1)])])])),
                       "coordinates.0.0 is a single value in the data read, and cannot be written as a list")
        XCTAssertEqual(problem(.list([.list([]), .list([]), .int(7)])),
                       "coordinates.2 is in a list of lists in the data read, and cannot be a single value")
        XCTAssertNil(problem(.list([.list([.int(9)]), .null, .list([.int(7), .int(8)])])))
        XCTAssertNil(problem(.list([.list([.int(9)])])), "a shorter list is no other shape")
        // Where null was read, an element takes the shape of the others.
        let withNull: ResponseValue = .object([("grid", .scalar(.list([.list([.int(1), .int(2)]), .null])))])
        XCTAssertEqual(withNull.problem(writing: .object(["grid": .list([.list([.int(1), .int(2)]), .int(5)])])),
                       "grid.1 is in a list of lists in the data read, and cannot be a single value")
        XCTAssertNil(withNull.problem(writing: .object(["grid": .list([.list([.int(1), .int(2)]), .list([.int(5)])])])))
        // Elements of several shapes, or objects, are a custom scalar's JSON: anything goes.
        for read: FieldValue in [.list([.int(1), .object(["a": .int(1)])]), .list([.object(["a": .int(1)])])] {
            let custom: ResponseValue = .object([("meta", .scalar(read))])
            XCTAssertNil(custom.problem(writing: .object(["meta": .list([.object(["x": .int(1)]), .int(5), .list([])])])), "\(read)")
        }
    }

    /// A list of objects, `[Character]`, or of lists of them, `[[Character]]`:
    /// an element appended, or written where null was read, takes the shape
    /// of the elements read, as the app's model can hold no other.
    func testAnElementAppendedToAListOfObjectsKeepsTheShapeOfThoseRead() {
        let friend: ResponseValue = .object([("name", .scalar(.string("Luke")))])
        let data: ResponseValue = .object([("friends", .list([friend, .null]))])
        func problem(_ written: [FieldValue]) -> String? { data.problem(writing: .object(["friends": .list(written)])) }
        let object = FieldValue.object(["name": .string("Han")])
        XCTAssertEqual(problem([object, .null, .list([object])]),
                       "friends.2 is in a list of objects in the data read, and cannot be a list")
        XCTAssertEqual(problem([object, .list([object])]), "friends.1 is in a list of objects in the data read, and cannot be a list")
        XCTAssertEqual(problem([object, .null, .string("Han")]),
                       "friends.2 is in a list of objects in the data read, and cannot be a single value")
        XCTAssertNil(problem([object, object, object]))
        XCTAssertNil(problem([object, .null, .null]))
        // `[[Character]]`: each level keeps its own shape.
        let grid: ResponseValue = .object([("search", .list([.list([friend])]))])
        XCTAssertEqual(grid.problem(writing: .object(["search": .list([.list([object]), object])])),
                       "search.1 is in a list of lists in the data read, and cannot be an object")
        XCTAssertEqual(grid.problem(writing: .object(["search": .list([.list([object, .list([object])])])])),
                       "search.0.1 is in a list of objects in the data read, and cannot be a list")
        XCTAssertNil(grid.problem(writing: .object(["search": .list([.list([object]), .list([object, object])])])))
        // Nothing read to take a shape from: any element may be written.
        let empty: ResponseValue = .object([("friends", .list([.null]))])
        XCTAssertNil(empty.problem(writing: .object(["friends": .list([.list([object])])])))
        // Inside an element appended, each level takes the shape of those read beside it.
        XCTAssertEqual(grid.problem(writing: .object(["search": .list([.list([object]), .list([object, .list([object])])])])),
                       "search.1.1 is in a list of objects in the data read, and cannot be a list")
        let withFriends: ResponseValue = .object([("friends", .list([.object([("name", .scalar(.string("Luke"))), ("friends", .list([friend]))])]))])
        XCTAssertEqual(withFriends.problem(writing: .object(["friends": .list([
            .object(["name": .string("Luke"), "friends": .list([object])]),
            .object(["name": .string("Han"), "friends": object]),
        ])])), "friends.1.friends is an object where the objects read beside it hold a list, which the app's model cannot hold")
        XCTAssertEqual(withFriends.problem(writing: .object(["friends": .list([
            .object(["name": .string("Luke"), "friends": .list([object])]),
            .object(["name": .string("Han"), "friends": .list([.list([object])])]),
        ])])), "friends.1.friends.0 is in a list of objects in the data read, and cannot be a list")
        XCTAssertNil(withFriends.problem(writing: .object(["friends": .list([
            .object(["name": .string("Luke"), "friends": .list([object])]),
            .object(["name": .string("Han"), "friends": .list([object, .null])]),
        ])])))
    }

    /// A field takes the shape the objects read beside it hold there:
    /// all of them, not only the first (whose may be null), where an
    /// object is appended and where a field was read as null. Leaves too,
    /// as in place; a custom scalar's JSON (a list holding objects) may
    /// take any shape.
    func testAFieldWrittenWhereNothingWasReadTakesTheShapeTheObjectsBesideItHold() {
        let luke: ResponseValue = .object([("__typename", .scalar(.string("Human"))), ("name", .scalar(.string("Luke"))), ("starships", .null)])
        let han: ResponseValue = .object([
            ("__typename", .scalar(.string("Human"))), ("name", .scalar(.string("Han"))),
            ("starships", .list([.object([("name", .scalar(.string("Falcon")))])])),
        ])
        let data: ResponseValue = .object([("friends", .list([luke, han]))])
        func friends(_ written: [FieldValue]) -> String? {
            data.problem(writing: .object(["friends": .list([luke.fieldValue, han.fieldValue] + written)]))
        }
        let ship = FieldValue.object(["name": .string("Tantive")])
        XCTAssertEqual(friends([.object(["__typename": .string("Human"), "name": .string("Leia"), "starships": ship])]),
                       "friends.2.starships is an object where the objects read beside it hold a list, which the app's model cannot hold")
        XCTAssertEqual(friends([.object(["__typename": .string("Human"), "name": .list([]), "starships": .list([ship])])]),
                       "friends.2.name is a list where the objects read beside it hold a single value, which the app's model cannot hold")
        XCTAssertNil(friends([.object(["__typename": .string("Human"), "name": .string("Leia"), "starships": .list([ship])])]))
        // Another type's object holds another selection.
        XCTAssertNil(friends([.object(["__typename": .string("Droid"), "name": .string("R2"), "starships": ship])]))
        // Luke's starships, read as null, take the shape Han's hold.
        var lukeWithShip = luke.fieldValue
        if case .object(var members) = lukeWithShip { members["starships"] = ship; lukeWithShip = .object(members) }
        XCTAssertEqual(data.problem(writing: .object(["friends": .list([lukeWithShip, han.fieldValue])])),
                       "friends.0.starships is an object where the objects read beside it hold a list, which the app's model cannot hold")
        // A custom scalar read as a list of objects may become anything.
        let meta: ResponseValue = .object([("meta", .scalar(.list([.object(["a": .int(1)]), .object(["b": .list([.int(1)])])])))])
        XCTAssertNil(meta.problem(writing: .object(["meta": .object(["grid": .list([.list([.int(1)])])])])))
        XCTAssertNil(meta.problem(writing: .object(["meta": .string("abc")])))
    }

    /// An element added to one inner list of a list of lists takes the
    /// shape of the elements of all of them, as one appended whole does:
    /// an inner list read empty says nothing, its neighbours do. So too a
    /// list of leaves read empty in one object and full in another.
    func testAnElementAddedToAnInnerListTakesTheShapeOfThoseOfTheListsBesideIt() {
        let human: ResponseValue = .object([("__typename", .scalar(.string("Human"))), ("name", .scalar(.string("Luke")))])
        let grid: ResponseValue = .object([("search", .list([.list([human]), .list([])]))])
        let object = FieldValue.object(["__typename": .string("Human"), "name": .string("Han")])
        XCTAssertEqual(grid.problem(writing: .object(["search": .list([.list([human.fieldValue]), .list([.list([object])])])])),
                       "search.1.0 is in a list of objects in the data read, and cannot be a list")
        XCTAssertEqual(
            grid.problem(writing: .object(["search": .list([
                .list([human.fieldValue]), .list([.object(["__typename": .string("Human"), "name": .list([.string("Han")])])]),
            ])])),
            "search.1.0.name is a list where the objects read beside it hold a single value, which the app's model cannot hold")
        XCTAssertNil(grid.problem(writing: .object(["search": .list([.list([human.fieldValue]), .list([object])])])))
        let items: ResponseValue = .object([("items", .list([
            .object([("labels", .scalar(.list([.string("x"), .string("y")])))]), .object([("labels", .scalar(.list([])))]),
        ]))])
        XCTAssertEqual(items.problem(writing: .object(["items": .list([
            .object(["labels": .list([.string("x"), .string("y")])]), .object(["labels": .list([.list([.int(1)])])]),
        ])])), "items.1.labels.0 is in a list of single values in the data read, and cannot be a list")
    }

    func testAListIndexIsDigitsWithoutASignOrALeadingZero() throws {
        let data: ResponseValue = .object([("reviews", .list([.scalar(.int(1)), .scalar(.int(2))]))])
        XCTAssertEqual(try data.setting(["reviews", "1"], to: .scalar(.int(5))).value(at: ["reviews", "1"]), .scalar(.int(5)))
        XCTAssertEqual(data.value(at: ["reviews", "0"]), .scalar(.int(1)))
        for step in ["01", "+1", "-0", " 1", ""] {
            XCTAssertNil(data.value(at: ["reviews", step]), step)
            XCTAssertThrowsError(try data.setting(["reviews", step], to: .scalar(.int(5))), step) { error in
                XCTAssertEqual((error as? DataPathError)?.description,
                               "reviews is a list of 2 elements; '\(step)' is not an index in it (0 to 1 change an element, 2 appends one)")
            }
        }
    }

    /// A custom scalar's JSON is no selection: a member may be added to it.
    func testAMemberMayBeAddedInsideACustomScalarsJSONButNotToTheSelection() throws {
        let data: ResponseValue = .object([("meta", .scalar(.object(["score": .double(1.5)])))])
        let set = try data.setting(["meta", "new"], to: .scalar(.int(2)))
        XCTAssertEqual(set.value(at: ["meta"]), .scalar(.object(["score": .double(1.5), "new": .int(2)])))
        XCTAssertThrowsError(try data.setting(["meta", "new", "deeper"], to: .scalar(.int(2)))) { error in
            XCTAssertEqual((error as? DataPathError)?.description, "meta has no 'new' to set a member of; set meta.new whole")
        }
        XCTAssertThrowsError(try data.setting(["other"], to: .scalar(.int(2)))) { error in
            XCTAssertEqual((error as? DataPathError)?.description, "the data has no 'other' in the selection (it has: meta)")
        }
    }
}
