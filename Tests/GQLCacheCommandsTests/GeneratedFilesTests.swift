import GQLCacheCommands
import XCTest

/// completions/ and man/ are generated from the command tree and committed;
/// these tests fail when a change to the tree leaves them stale. Fix with
/// Scripts/update-generated.sh.
final class GeneratedFilesTests: XCTestCase {
    func testCommittedCompletionScriptsMatchTheCommandTree() throws {
        for (shell, file) in [("bash", "gqlcache.bash"), ("zsh", "_gqlcache"), ("fish", "gqlcache.fish")] {
            let generated = gqlcache("--generate-completion-script", shell)
            XCTAssertEqual(generated.status, .success)
            let committed = try String(contentsOf: repositoryRoot.appendingPathComponent("completions/\(file)"), encoding: .utf8)
            XCTAssertEqual(committed, generated.stdout, "completions/\(file) is stale: run Scripts/update-generated.sh")
        }
    }

    func testCommittedManPageNamesEverySubcommandAndOption() throws {
        let page = try String(contentsOf: repositoryRoot.appendingPathComponent("man/gqlcache.1"), encoding: .utf8)
        let itemLines = page.split(separator: "\n").filter { $0.hasPrefix(".It ") }
        let dump = gqlcache("--experimental-dump-help")
        XCTAssertEqual(dump.status, .success)
        let tool = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let command = try XCTUnwrap(tool["command"] as? [String: Any])
        for subcommand in command["subcommands"] as? [[String: Any]] ?? [] {
            let name = try XCTUnwrap(subcommand["commandName"] as? String)
            guard name != "help" else { continue }
            XCTAssertTrue(page.contains(".It Em \(name)"), "man/gqlcache.1 lacks \(name): run Scripts/update-generated.sh")
            for argument in subcommand["arguments"] as? [[String: Any]] ?? [] {
                guard let names = argument["names"] as? [[String: Any]],
                    let long = names.first(where: { $0["kind"] as? String == "long" })?["name"] as? String
                else { continue }
                XCTAssertTrue(itemLines.contains { $0.contains("Fl -\(long)") || $0.contains(", -\(long)") }, "man/gqlcache.1 lacks --\(long) of \(name): run Scripts/update-generated.sh")
            }
        }
    }
}
