// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "gqlcache",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "gqlcache", targets: ["gqlcache"]),
        .library(name: "CacheStore", targets: ["CacheStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/GraphQLSwift/GraphQL", exact: "4.3.0"),
    ],
    targets: [
        // Records, keys, file formats and transactions. No printing, no argument parsing.
        .target(
            name: "CacheStore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API: the progress handler (ScanProgress.swift), the pattern removal's
                // scanning function and the graph pass, which steps its statement itself.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                "CSQLiteConfig",
            ]
        ),
        // sqlite3_db_config, whose C varargs Swift cannot pass (libsqlite3-dev).
        .systemLibrary(name: "CSQLiteConfig", providers: [.apt(["libsqlite3-dev"])]),
        // GraphQL documents: field cache keys, typed reads. Reads records through
        // the store's transactions, never SQL.
        .target(
            name: "CacheQuery",
            dependencies: ["CacheStore", .product(name: "GraphQL", package: "GraphQL")]
        ),
        // GNU readline and history (libreadline-dev), for the REPL only.
        .systemLibrary(name: "CReadline", providers: [.apt(["libreadline-dev"])]),
        // Ctrl-C, kill and a closed terminal caught while a command-line write is under way.
        .target(name: "CSignals"),
        // The command tree, renderers, the REPL and the in-process runner shared by CLI and tests.
        .target(
            name: "GQLCacheCommands",
            dependencies: [
                "CacheStore",
                "CacheQuery",
                "CReadline",
                "CSignals",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // readline's terminal functions: named, so that a fully static
            // build (-static-executable, see Scripts/install.sh) links them too.
            linkerSettings: [.linkedLibrary("tinfo", .when(platforms: [.linux]))]
        ),
        // Targets that import CacheStore name it directly: SwiftPM passes GRDB's
        // SQLite module map only to direct dependents, and the compiler needs it.
        .executableTarget(name: "gqlcache", dependencies: ["GQLCacheCommands", "CacheStore"]),
        // Deterministic Apollo-shaped example caches, for Examples/ and the benchmarks.
        .target(name: "ExampleCaches", dependencies: ["CacheStore"]),
        .executableTarget(name: "gqlcache-example", dependencies: ["ExampleCaches", "CacheStore"]),
        .testTarget(name: "CacheStoreTests", dependencies: ["CacheStore", "ExampleCaches"]),
        .testTarget(name: "CacheQueryTests", dependencies: ["CacheQuery", "CacheStore"], exclude: ["starwars.graphqls", "starwars.json"]),
        .testTarget(
            name: "GQLCacheCommandsTests",
            dependencies: ["GQLCacheCommands", "CacheStore", "CacheQuery", "ExampleCaches"],
            exclude: ["RoundTrip"]
        ),
    ]
)
