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

    /// fish looks under a prefix's share folder only when XDG_DATA_DIRS
    /// names it (not /usr/local, by default), zsh only where fpath says:
    /// the installer tells which shell would not find its script, and
    /// what makes it; fish finds one under ~/.local by itself.
    func testInstallSaysWhichShellWouldNotFindItsCompletions() throws {
        for name in ["fish", "zsh"] {
            try requireProgram(["/usr/bin/\(name)", "/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }, name)
        }
        func install(_ prefix: String, home: String) throws -> String {
            let result = try runProgram(
                repositoryRoot.appendingPathComponent("Scripts/install.sh").path, ["--prefix", prefix, "--binary", builtBinary],
                environment: ["HOME": home, "PATH": "/usr/bin:/bin"])
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout
        }
        let home = path("home")
        let elsewhere = try install(path("prefix"), home: home)
        let fish = path("prefix") + "/share/fish/vendor_completions.d"
        XCTAssertTrue(elsewhere.contains("note: fish does not look in \(fish) (it does when XDG_DATA_DIRS names \(path("prefix"))/share); "
            + "for fish to complete gqlcache: mkdir -p ~/.config/fish/completions && ln -s '\(fish)/gqlcache.fish' ~/.config/fish/completions/\n"), elsewhere)
        let zsh = path("prefix") + "/share/zsh/site-functions"
        XCTAssertTrue(elsewhere.contains("note: zsh does not look in \(zsh) unless ~/.zshrc adds it: fpath=('\(zsh)' $fpath) before compinit\n"), elsewhere)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/.config"), "asking fish made its folders in the home folder")
        let local = try install(home + "/.local", home: home)
        XCTAssertFalse(local.contains("note: fish"), local)
        XCTAssertTrue(local.contains("note: zsh"), local)
    }
}
