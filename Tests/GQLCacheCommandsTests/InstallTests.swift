import Foundation
import GQLCacheCommands
import XCTest

/// Scripts/install.sh, with the already built binary, into a temporary
/// prefix: every file lands where bash, zsh, fish and man look for it.
final class InstallTests: CommandTestCase {
    func testInstallPutsBinaryManPageAndCompletionsUnderThePrefix() throws {
        let prefix = path("prefix with space")
        let install = Process()
        install.executableURL = repositoryRoot.appendingPathComponent("Scripts/install.sh")
        install.arguments = ["--prefix", prefix, "--binary", builtBinary]
        install.standardOutput = FileHandle.nullDevice
        try install.run()
        install.waitUntilExit()
        XCTAssertEqual(install.terminationStatus, 0)

        let installed: [(String, String)] = [
            ("share/man/man1/gqlcache.1", "man/gqlcache.1"),
            ("share/bash-completion/completions/gqlcache", "completions/gqlcache.bash"),
            ("share/zsh/site-functions/_gqlcache", "completions/_gqlcache"),
            ("share/fish/vendor_completions.d/gqlcache.fish", "completions/gqlcache.fish"),
        ]
        for (target, source) in installed {
            XCTAssertEqual(try bytes(prefix + "/" + target), try bytes(repositoryRoot.appendingPathComponent(source).path), target)
        }
        let binary = prefix + "/bin/gqlcache"
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: binary))
        let version = Process()
        version.executableURL = URL(fileURLWithPath: binary)
        version.arguments = ["--version"]
        let output = Pipe()
        version.standardOutput = output
        try version.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        version.waitUntilExit()
        XCTAssertEqual(text, GQLCacheVersion.current + "\n")
    }
}
