// Writes a deterministic example cache: `gqlcache-example OUT.sqlite [--users N]
// [--posts-per-user N] [--comments-per-post N] [--no-avatars] [--directory N]`.
// `--directory N` adds `users(first:N)` to QUERY_ROOT (references to User:1…N),
// for benchmarks that read a list of users; it is off by default.
import CacheStore
import ExampleCaches
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
var spec = BlogCache(users: 5)
var output: String?

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("gqlcache-example: \(message)\n".utf8))
    exit(2)
}

func intValue(after flag: String, in arguments: inout [String]) -> Int {
    guard !arguments.isEmpty, let value = Int(arguments.removeFirst()), value >= 0 else {
        fail("\(flag) needs a whole number")
    }
    return value
}

while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--users": spec.users = intValue(after: argument, in: &arguments)
    case "--posts-per-user": spec.postsPerUser = intValue(after: argument, in: &arguments)
    case "--comments-per-post": spec.commentsPerPost = intValue(after: argument, in: &arguments)
    case "--no-avatars": spec.avatars = false
    case "--directory": spec.directory = intValue(after: argument, in: &arguments)
    case "-h", "--help":
        print("usage: gqlcache-example OUT.sqlite [--users N] [--posts-per-user N] [--comments-per-post N] [--no-avatars] [--directory N]")
        exit(0)
    default:
        guard output == nil, !argument.hasPrefix("-") else { fail("unexpected argument '\(argument)'") }
        output = argument
    }
}
guard let output else { fail("name the file to create, e.g. gqlcache-example blog.sqlite") }

do {
    let store = try CacheStore.create(at: output)
    try spec.write(to: store)
    print("wrote \(spec.recordCount) records to \(output)")
} catch {
    fail("\(error)")
}
