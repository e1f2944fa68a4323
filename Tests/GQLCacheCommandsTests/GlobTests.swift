import XCTest

@testable import GQLCacheCommands

/// Path patterns as Apollo's codegen search paths write them.
final class GlobTests: XCTestCase {
    func testAStarMatchesWithinOneComponentOnly() {
        let glob = Glob("*.graphql")
        XCTAssertTrue(glob.matches("HeroQuery.graphql"))
        XCTAssertTrue(glob.matches("x.graphql"))
        XCTAssertFalse(glob.matches("Feature/HeroQuery.graphql"))
        XCTAssertFalse(glob.matches("HeroQuery.graphqls"))
        XCTAssertTrue(Glob("Sources/*/*.graphql").matches("Sources/Hero/HeroQuery.graphql"))
        XCTAssertFalse(Glob("Sources/*/*.graphql").matches("Sources/Hero/Deep/HeroQuery.graphql"))
    }

    func testAQuestionMarkMatchesOneCharacter() {
        let glob = Glob("file-?.graphql")
        XCTAssertTrue(glob.matches("file-1.graphql"))
        XCTAssertFalse(glob.matches("file-10.graphql"))
        XCTAssertFalse(glob.matches("file-.graphql"))
    }

    func testADoubleStarMatchesAnyNumberOfFoldersNoneIncluded() {
        let glob = Glob("**/*.graphql")
        XCTAssertTrue(glob.matches("HeroQuery.graphql"))
        XCTAssertTrue(glob.matches("Feature/HeroQuery.graphql"))
        XCTAssertTrue(glob.matches("Sources/Feature/Hero/HeroQuery.graphql"))
        let inner = Glob("Sources/**/Hero/*.graphql")
        XCTAssertTrue(inner.matches("Sources/Hero/HeroQuery.graphql"))
        XCTAssertTrue(inner.matches("Sources/App/Feature/Hero/HeroQuery.graphql"))
        XCTAssertFalse(inner.matches("Tests/Hero/HeroQuery.graphql"))
        XCTAssertFalse(inner.matches("Sources/Hero/Deeper/HeroQuery.graphql"))
    }

    func testADoubleStarNeverEntersTheFoldersApolloSkips() {
        let glob = Glob("**/*.graphql")
        XCTAssertFalse(glob.matches(".build/checkouts/apollo-ios/Schema.graphql"))
        XCTAssertFalse(glob.matches("App/.swiftpm/Package.graphql"))
        XCTAssertFalse(glob.matches(".Pods/Other.graphql"))
        XCTAssertTrue(glob.matches("App/.generated/HeroQuery.graphql"), "other hidden folders are searched, as Apollo's enumeration does")
        XCTAssertTrue(Glob(".build/*.graphql").matches(".build/Named.graphql"), "a folder named outright is searched")
    }

    func testADoubleStarAtTheEndMatchesEveryFileBelow() {
        let glob = Glob("Legacy/**")
        XCTAssertTrue(glob.matches("Legacy/Old.graphql"))
        XCTAssertTrue(glob.matches("Legacy/Deep/Old.graphql"))
        XCTAssertFalse(glob.matches("Legacy"))
        XCTAssertFalse(glob.matches("Current/Old.graphql"))
    }

    func testANameStartingWithADotIsMatchedOnlyByALiteralDot() {
        XCTAssertFalse(Glob("*.graphql").matches(".HeroQuery.graphql"))
        XCTAssertFalse(Glob("?HeroQuery.graphql").matches(".HeroQuery.graphql"))
        XCTAssertFalse(Glob("[.]HeroQuery.graphql").matches(".HeroQuery.graphql"))
        XCTAssertTrue(Glob(".*.graphql").matches(".HeroQuery.graphql"))
        XCTAssertTrue(Glob("*.graphql").matches("Hero.Query.graphql"), "only a leading dot is special")
    }

    func testBracesStandForEachAlternative() {
        let glob = Glob("{Sources,Tests}/**/*.{graphql,gql}")
        XCTAssertTrue(glob.matches("Sources/HeroQuery.graphql"))
        XCTAssertTrue(glob.matches("Tests/Mocks/HeroQuery.gql"))
        XCTAssertFalse(glob.matches("Other/HeroQuery.graphql"))
        XCTAssertFalse(glob.matches("Sources/HeroQuery.graphqls"))
        XCTAssertEqual(Glob.expandingBraces("a{b,{c,d}e}f"), ["abf", "acef", "adef"])
        XCTAssertEqual(Glob.expandingBraces("{}{a"), ["{}{a"], "empty and unclosed braces are literal")
    }

    func testSetsAndEscapesMatchAsInGlob3() {
        XCTAssertTrue(Glob("file[0-9].graphql").matches("file7.graphql"))
        XCTAssertFalse(Glob("file[0-9].graphql").matches("filex.graphql"))
        XCTAssertTrue(Glob("file[]x].graphql").matches("file].graphql"), "a ] first in a set is a member")
        XCTAssertTrue(Glob("[abc").matches("[abc"), "an unclosed [ is literal")
        XCTAssertTrue(Glob("\\*.graphql").matches("*.graphql"))
        XCTAssertFalse(Glob("\\*.graphql").matches("HeroQuery.graphql"))
    }

    func testMayMatchInsideTellsWhichFoldersASearchCanSkip() {
        let deep = Glob("Sources/**/*.graphql")
        XCTAssertTrue(deep.mayMatch(inside: "Sources"))
        XCTAssertTrue(deep.mayMatch(inside: "Sources/App/Feature"))
        XCTAssertFalse(deep.mayMatch(inside: "Tests"))
        XCTAssertFalse(deep.mayMatch(inside: "Sources/.build"))
        XCTAssertFalse(Glob("*.graphql").mayMatch(inside: "Sources"))
        XCTAssertTrue(Glob("*/Hero/*.graphql").mayMatch(inside: "Sources/Hero"))
        XCTAssertFalse(Glob("*/Hero/*.graphql").mayMatch(inside: "Sources/Villain"))
    }

    func testTheLiteralPrefixIsWhereASearchStarts() {
        XCTAssertEqual(Glob("Sources/GraphQL/**/*.graphql").literalPrefix, "Sources/GraphQL")
        XCTAssertEqual(Glob("**/*.graphql").literalPrefix, "")
        XCTAssertEqual(Glob("/project/schema/*.graphqls").literalPrefix, "/project/schema")
        XCTAssertEqual(Glob("{a,b}/*.graphql").literalPrefix, "")
        XCTAssertTrue(Glob("schema/starwars.graphqls").isLiteral)
        XCTAssertFalse(Glob("schema/*.graphqls").isLiteral)
    }

    func testAnEscapedFolderMatchesOnlyItself() {
        let folder = "/projects/My [old] project*"
        let glob = Glob(Glob.escaping(folder) + "/*.graphql")
        XCTAssertTrue(glob.matches(folder + "/HeroQuery.graphql"))
        XCTAssertFalse(glob.matches("/projects/My o project/HeroQuery.graphql"))
    }
}
