import CacheStore
import Foundation
import XCTest

/// The round trip of the correctness bar: responses written with `write`
/// read back unchanged with `read`, and `update` changes exactly the fields
/// it names. The corpus (RoundTrip/) covers interfaces, a union, aliases,
/// nested lists of objects with and without keys, input objects, null
/// elements, custom scalars and nested fragments.
final class RoundTripTests: CommandTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("RoundTrip")
    static let cases = ["AuthorWithBooks", "Search", "Shelf", "NodeById", "RateBook"]
    var schema: String { Self.corpus.appendingPathComponent("library.graphqls").path }
    var operations: String { Self.corpus.appendingPathComponent("operations.graphql").path }

    struct Case {
        let name: String
        let variables: String
        let response: String
        let data: NSDictionary
    }

    func loadCase(_ name: String) throws -> Case {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.corpus.appendingPathComponent("\(name).json"))) as! NSDictionary
        let response = object["response"] as! NSDictionary
        let responseFile = path("\(name)-response.json")
        try JSONSerialization.data(withJSONObject: response).write(to: URL(fileURLWithPath: responseFile))
        let variables = String(decoding: try JSONSerialization.data(withJSONObject: object["variables"]!), as: UTF8.self)
        return Case(name: name, variables: variables, response: responseFile, data: response["data"] as! NSDictionary)
    }

    /// A new cache holding every response of the corpus.
    func cacheWithTheCorpus() throws -> String {
        let cache = path("library.sqlite")
        for name in Self.cases {
            let item = try loadCase(name)
            let result = gqlcache("write", cache, name, "--create", "--document", operations, "--schema", schema,
                                  "--variables", item.variables, "--response", item.response)
            XCTAssertEqual(result.status, .success, "\(name): \(result.stderr)")
        }
        return cache
    }

    func read(_ cache: String, _ item: Case) throws -> NSDictionary? {
        let result = gqlcache("read", cache, item.name, "--document", operations, "--schema", schema, "--variables", item.variables, "--format", "json")
        XCTAssertEqual(result.status, .success, "\(item.name): \(result.stderr)")
        return try result.json() as? NSDictionary
    }

    func testEveryResponseWrittenReadsBackAsItWasWritten() throws {
        let cache = try cacheWithTheCorpus()
        for name in Self.cases {
            let item = try loadCase(name)
            XCTAssertEqual(try read(cache, item), item.data, name)
        }
    }

    func testWritingStoresKeysAsApolloDoes() throws {
        let records = try records(try cacheWithTheCorpus())
        // @typePolicy keys, joined by + with \ and + escaped.
        XCTAssertNotNil(records["Author:a1"])
        XCTAssertNotNil(records[#"Book:978\+0+en"#])
        XCTAssertNotNil(records[#"Book:978\\1+en"#])
        // Field keys: sorted arguments, input objects in brackets, no schema defaults, aliases ignored.
        let author = try XCTUnwrap(records["Author:a1"])
        XCTAssertNotNil(author["books([filter:minRating:3.5,[range:from:2000-01-01],sort:RATING,tags:[sf]],first:2)"], "\(author.keys.sorted())")
        XCTAssertEqual(author["avatar"], .reference(CacheKey("Author:a1.avatar")))
        XCTAssertEqual(author["avatar(size:32)"], .reference(CacheKey("Author:a1.avatar(size:32)")))
        // Key-less objects at path keys, list indexes at each level, null elements kept.
        XCTAssertEqual(records["QUERY_ROOT.shelf(id:s1)"]?["rows"], .list([
            .list([.reference(CacheKey(#"Book:978\+0+en"#)), .null]), .list([]), .list([.reference(CacheKey("Book:111+de"))]),
        ]))
        XCTAssertEqual(records[#"Book:978\+0+en"#]?["reviews(first:2)"], .list([
            .reference(CacheKey(#"Book:978\+0+en.reviews(first:2).0"#)), .null,
        ]))
        // A mutation's keyed result is a reference from MUTATION_ROOT; a key-less one a record under it.
        XCTAssertEqual(records["MUTATION_ROOT"]?["rateBook(isbn:111,lang:de,rating:5.0)"], .reference(CacheKey("Book:111+de")))
        XCTAssertEqual(records["MUTATION_ROOT.addNote(text:rated)"]?["createdAt"], .object(["epoch": .int(1_700_000_000), "zone": .string("UTC")]))
        // An object without its key fields selected is stored at its path.
        XCTAssertEqual(records["QUERY_ROOT"]?["node(id:b9)"], .reference(CacheKey("QUERY_ROOT.node(id:b9)")))
    }

    func testAnUpdateChangesTheNamedFieldsAndNothingElse() throws {
        let cache = try cacheWithTheCorpus()
        let before = try records(cache)
        let result = gqlcache("update", cache, "AuthorName", "--document", operations, "--schema", schema, "--var", "id=a1",
                              "--set", "author.name=Ursula K. Le Guin", "--set", "author.books.1.title=Earthsea")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.lines, [
            "Author:a1",
            #"  name: "Ursula" → "Ursula K. Le Guin""#,
            #"Book:978\\1+en"#,
            #"  title: "A Wizard / of \"Earthsea\" é" → "Earthsea""#,
            "2 records changed (2 fields)",
        ])
        var expected = before
        expected["Author:a1"]!["name"] = .string("Ursula K. Le Guin")
        expected[#"Book:978\\1+en"#]!["title"] = .string("Earthsea")
        XCTAssertEqual(try records(cache), expected)

        let item = try loadCase("AuthorWithBooks")
        let read = try XCTUnwrap(try read(cache, item))
        let author = read["author"] as! NSDictionary
        XCTAssertEqual(author["name"] as? String, "Ursula K. Le Guin")
        XCTAssertEqual(((author["books"] as! NSArray)[1] as! NSDictionary)["title"] as? String, "Earthsea")
    }

    func testADryRunUpdatePrintsTheSameChangesAndWritesNothing() throws {
        let cache = try cacheWithTheCorpus()
        let bytes = try bytes(cache)
        let result = gqlcache("update", cache, "AuthorName", "--document", operations, "--var", "id=a1",
                              "--set", "author.name=U", "--dry-run", "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, #"""
            {
              "dryRun": true,
              "records": [
                {
                  "key": "Author:a1",
                  "new": false,
                  "fields": [
                    {
                      "field": "name",
                      "before": "Ursula",
                      "after": "U"
                    }
                  ]
                }
              ]
            }

            """#)
        XCTAssertEqual(try self.bytes(cache), bytes)
    }
}
