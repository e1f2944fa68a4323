import Foundation
import XCTest

@testable import GQLCacheCommands

/// Lists of search paths: exclusions, and the files found on disk.
final class SearchPathsTests: CommandTestCase {
    func testAnExclusionRemovesWhatItMatchesWhereverItStandsInTheList() throws {
        let paths = try SearchPaths(["!Legacy/**", "**/*.graphql"], origin: "input.operationSearchPaths")
        XCTAssertTrue(paths.matches("Feature/HeroQuery.graphql"))
        XCTAssertFalse(paths.matches("Legacy/OldQuery.graphql"))
        XCTAssertFalse(try SearchPaths(["!*.graphql"], origin: "").matches("HeroQuery.graphql"), "exclusions alone include nothing")
    }

    func testABangAnywhereButFirstIsRefusedAsApolloRefusesIt() {
        XCTAssertThrowsError(try SearchPaths(["**/*.graphql", "Sources/!Legacy/*.graphql"], origin: "config.json: input.operationSearchPaths")) { error in
            XCTAssertEqual(error as? CommandFailure, CommandFailure(
                .usage, "config.json: input.operationSearchPaths: 'Sources/!Legacy/*.graphql': '!' may only start a pattern, to exclude the files it matches"))
        }
    }

    func testFilesComeInPatternOrderEachPatternsSortedAndEachOnce() throws {
        for file in ["b/2.graphql", "b/1.graphql", "a/3.graphql", "a/.build/4.graphql", "a/x/5.graphql", "c/6.graphql", "schema.graphqls"] {
            try write("", to: file)
        }
        let paths = try SearchPaths(["b/*.graphql", "**/*.graphql", "!c/**", "schema.graphqls", "missing.graphqls"], origin: "")
        let root = folder.path
        XCTAssertEqual(try paths.files(inFolder: root), [
            "\(root)/b/1.graphql", "\(root)/b/2.graphql", "\(root)/a/3.graphql", "\(root)/a/x/5.graphql", "\(root)/schema.graphqls",
        ])
    }

    func testAbsolutePatternsAndPatternsLeavingTheFolderAreFollowed() throws {
        try write("", to: "shared/schema.graphqls")
        try write("", to: "project/apollo-codegen-config.json")
        let root = folder.path
        let paths = try SearchPaths(["../shared/*.graphqls", "\(root)/shared/schema.graphqls"], origin: "")
        XCTAssertEqual(try paths.files(inFolder: "\(root)/project"), ["\(root)/project/../shared/schema.graphqls"], "the same file is found once")
    }

    func testALinkBackToAParentFolderDoesNotLoopTheSearch() throws {
        try write("", to: "a/HeroQuery.graphql")
        try FileManager.default.createSymbolicLink(atPath: path("a/loop"), withDestinationPath: folder.path)
        let paths = try SearchPaths(["**/*.graphql"], origin: "")
        XCTAssertEqual(try paths.files(inFolder: folder.path), ["\(folder.path)/a/HeroQuery.graphql"])
    }

    func write(_ text: String, to relativePath: String) throws {
        let url = folder.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}
