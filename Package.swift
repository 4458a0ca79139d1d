// swift-tools-version: 6.2
// Fresh: HTTP caching, offline-first fetching and cursor pagination for Swift on Linux.
// The modules, the dependency rule and where each idea lives: docs/architecture.md.

import PackageDescription

let package = Package(
    name: "Fresh",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "fresh", targets: ["fresh"]),
        .executable(name: "fresh-postgresql", targets: ["fresh-postgresql"]),
        .executable(name: "fresh-reader", targets: ["fresh-reader"]),
        .executable(name: "fresh-mock", targets: ["fresh-mock"]),
        // Libraries for the benchmark package under Tools/Benchmarks (it depends on this one by path).
        .library(name: "HTTPFields", targets: ["HTTPFields"]),
        .library(name: "HTTPCache", targets: ["HTTPCache"]),
        .library(name: "Storage", targets: ["Storage"]),
        .library(name: "CurlTransport", targets: ["CurlTransport"]),
        .library(name: "MockServer", targets: ["MockServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // Without its default traits: ConfigurationSupport would build swift-configuration, which nothing here
        // reads, and FullFoundation serves only URL-encoded forms, which fresh-mock does not decode.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/adam-fowler/compress-nio", exact: "1.5.0"),
        // The mock server's own imports of what Hummingbird is built on.
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", exact: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
    ],
    targets: [
        // MARK: Pure modules (no I/O, no C)
        .target(name: "Models", path: "Modules/Models"),
        .target(name: "HTTPFields", path: "Modules/HTTPFields"),
        .target(name: "JSON", dependencies: ["CJSONScan"], path: "Modules/JSON"),
        .target(name: "CJSONScan", path: "Modules/CJSONScan"),
        .target(
            name: "HTTPCache",
            dependencies: ["HTTPFields", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Modules/HTTPCache"
        ),
        .target(name: "Pagination", dependencies: ["HTTPFields", "JSON"], path: "Modules/Pagination"),
        .target(name: "Fetcher", path: "Modules/Fetcher"),
        // Why a database could not be used: the one error type of the cache and of both mirrors.
        .target(name: "StorageErrors", path: "Modules/StorageErrors"),
        // Where a PostgreSQL mirror is, read as libpq reads it: without the client, for `fresh`.
        .target(name: "StoreAddress", path: "Modules/StoreAddress"),
        .target(
            name: "MirrorStore",
            dependencies: ["JSON", "Pagination", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Modules/MirrorStore"
        ),
        // When requests may go: stated rate limits, Retry-After, per-origin turns, retries.
        .target(
            name: "Pacing", dependencies: ["HTTPCache", "HTTPFields", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Modules/Pacing"
        ),

        // MARK: Threads of our own, which exist only for speed
        .target(name: "DedicatedThreads", path: "Modules/DedicatedThreads"),

        // MARK: System-library shims
        // libcurl's headers (Debian libcurl4-openssl-dev) and a loader: libcurl itself is opened
        // with dlopen on the first request, so a run the cache answers never loads it.
        .target(name: "CCurl", path: "Modules/CCurl", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CContentCoding", path: "Modules/CContentCoding", linkerSettings: [.linkedLibrary("dl")]),
        .systemLibrary(name: "CWidth", path: "Modules/CWidth"),
        .systemLibrary(name: "CSQLiteOptions", path: "Modules/CSQLiteOptions"),
        // libpq, PostgreSQL's own client (Debian libpq-dev), for the PostgreSQL mirror.
        .systemLibrary(name: "CLibpq", path: "Modules/CLibpq", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // OpenSSL's TLS (Debian libssl-dev), which fresh-mock serves `--tls` with.
        .systemLibrary(name: "COpenSSL", path: "Modules/COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(
            name: "CNcursesw", path: "Modules/CNcursesw", pkgConfig: "ncursesw",
            providers: [.apt(["libncurses-dev"])]
        ),

        // MARK: Terminal text (display cells, escaping), shared by the two terminal programs
        .target(name: "TerminalText", dependencies: ["CWidth"], path: "Modules/TerminalText"),

        // MARK: Live implementations
        .target(
            name: "CurlTransport",
            dependencies: ["CCurl", "CContentCoding", "DedicatedThreads", "HTTPCache", "HTTPFields",
                           .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Modules/CurlTransport"
        ),
        .target(
            name: "Storage",
            dependencies: ["StorageErrors", 
                "CSQLiteOptions", "DedicatedThreads", "HTTPCache", "HTTPFields", "JSON", "MirrorStore", "Pagination",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Modules/Storage"
        ),
        .target(
            name: "PostgresStore",
            dependencies: ["StorageErrors", 
                "CLibpq", "DedicatedThreads", "HTTPFields", "JSON", "MirrorStore", "Pagination", "StoreAddress",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Modules/PostgresStore"
        ),
        .target(
            name: "SyncEngine",
            dependencies: [
                "HTTPCache", "HTTPFields", "JSON", "MirrorStore", "Pacing", "Pagination", .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Modules/SyncEngine"
        ),

        // MARK: The composition root: the live services, which only the programs import
        .target(
            name: "Composition",
            dependencies: ["CurlTransport", "HTTPCache", "HTTPFields", "MirrorStore", "Pacing", "Storage", "StorageErrors", "StoreAddress", "SyncEngine", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Modules/Composition"
        ),

        // MARK: Named sources: an API's URL, headers and options under a name (sources.toml)
        .target(
            name: "NamedSources",
            dependencies: [
                "HTTPCache", "JSON", "MirrorStore", "Pagination", "Storage", "SyncEngine", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            path: "Modules/NamedSources"
        ),

        // MARK: Sync orchestration: names to targets, the command line over a source, several syncs, a watch's schedule
        .target(
            name: "SyncOrchestration",
            dependencies: [
                "HTTPCache", "JSON", "MirrorStore", "NamedSources", "Pacing", "Pagination", "SyncEngine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Modules/SyncOrchestration"
        ),

        // MARK: How the programs start and end (one error style for every command line)
        .target(
            name: "CommandLaunch", dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Modules/CommandLaunch"
        ),

        // MARK: Apps (a library with the logic, a thin executable beside it)
        .target(
            name: "FreshCLI",
            dependencies: ["StorageErrors", "Composition",
                "CommandLaunch", "CurlTransport", "HTTPCache", "HTTPFields", "JSON", "MirrorStore", "NamedSources", "Pacing", "Pagination", "StoreAddress",
                "Storage", "SyncEngine", "SyncOrchestration", "TerminalText", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Apps/FreshCLI"
        ),
        .executableTarget(name: "fresh", dependencies: ["Composition", "FreshCLI"], path: "Apps/fresh"),
        .executableTarget(name: "fresh-postgresql", dependencies: ["Composition", "FreshCLI", "PostgresStore"], path: "Apps/fresh-postgresql"),
        .target(
            name: "FreshReader",
            dependencies: ["StorageErrors", "Composition",
                "CNcursesw", "Fetcher", "HTTPCache", "JSON", "MirrorStore", "NamedSources", "Pagination", "Storage", "StoreAddress", "SyncEngine", "SyncOrchestration", "TerminalText",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Apps/FreshReader"
        ),
        .executableTarget(name: "fresh-reader", dependencies: ["CommandLaunch", "Composition", "FreshReader", "PostgresStore"], path: "Apps/fresh-reader"),
        .target(
            name: "MockServer",
            dependencies: [
                "COpenSSL", "CommandLaunch", "Models", "HTTPFields", "JSON", "MirrorStore", "Pagination",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            path: "Apps/MockServer"
        ),
        .executableTarget(name: "fresh-mock", dependencies: ["Composition", "MockServer", "PostgresStore", "Storage", "StorageErrors"], path: "Apps/fresh-mock"),

        // MARK: Tests (one target per module and app)
        .testTarget(name: "ModelsTests", dependencies: ["Models"], path: "Tests/ModelsTests"),
        .testTarget(name: "HTTPFieldsTests", dependencies: ["HTTPFields"], path: "Tests/HTTPFieldsTests"),
        .testTarget(name: "JSONTests", dependencies: ["JSON"], path: "Tests/JSONTests"),
        .testTarget(name: "HTTPCacheTests", dependencies: ["HTTPCache", "HTTPFields", .product(name: "HTTPTypes", package: "swift-http-types")], path: "Tests/HTTPCacheTests"),
        .testTarget(name: "PaginationTests", dependencies: ["JSON", "Pagination"], path: "Tests/PaginationTests"),
        .testTarget(name: "FetcherTests", dependencies: ["Fetcher"], path: "Tests/FetcherTests"),
        .testTarget(
            name: "PacingTests", dependencies: ["HTTPCache", "HTTPFields", "Pacing", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Tests/PacingTests"),
        .testTarget(name: "DedicatedThreadsTests", dependencies: ["DedicatedThreads"], path: "Tests/DedicatedThreadsTests"),
        .testTarget(
            name: "CurlTransportTests", dependencies: ["CurlTransport", "DedicatedThreads", "HTTPCache", "MockServer", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Tests/CurlTransportTests"),
        .testTarget(
            name: "StorageTests",
            dependencies: ["StorageErrors", "CSQLiteOptions", "HTTPCache", "JSON", "MirrorStore", "Storage", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Tests/StorageTests"),
        // A throwaway PostgreSQL cluster and a store of either kind, for the two stores' tests.
        .target(name: "StoreTestSupport", dependencies: ["JSON", "MirrorStore", "PostgresStore", "Storage", "StoreAddress", .product(name: "GRDB", package: "GRDB.swift")],
                path: "Tests/StoreTestSupport"),
        .testTarget(
            name: "MirrorStoreTests",
            dependencies: ["JSON", "MirrorStore", "Pagination", "StorageErrors", "StoreTestSupport", .product(name: "HTTPTypes", package: "swift-http-types")], path: "Tests/MirrorStoreTests"),
        .testTarget(
            name: "PostgresStoreTests", dependencies: ["StorageErrors", "JSON", "MirrorStore", "PostgresStore", "StoreAddress", "StoreTestSupport"], path: "Tests/PostgresStoreTests"),
        .testTarget(
            name: "SyncEngineTests",
            dependencies: ["Composition", "HTTPCache", "HTTPFields", "JSON", "MirrorStore", "MockServer", "Pacing", "Pagination", "Storage", "SyncEngine", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Tests/SyncEngineTests"),
        .testTarget(
            name: "FreshCLITests",
            dependencies: ["StorageErrors", "CommandLaunch", "FreshCLI", "SyncOrchestration", "FreshReader", "HTTPCache", "JSON", "MirrorStore", "MockServer", "NamedSources", "Storage", "SyncEngine", "TerminalText", .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Tests/FreshCLITests"),
        .testTarget(
            name: "FreshReaderTests", dependencies: ["Composition", "Fetcher", "NamedSources", "SyncOrchestration", "FreshReader", "JSON", "MirrorStore", "Pagination", "Pacing", "Storage", "SyncEngine", "TerminalText", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Tests/FreshReaderTests"),
        .testTarget(
            name: "CommandLaunchTests", dependencies: ["CommandLaunch", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Tests/CommandLaunchTests"),
        .testTarget(name: "TerminalTextTests", dependencies: ["TerminalText"], path: "Tests/TerminalTextTests"),
        .testTarget(
            name: "SyncOrchestrationTests", dependencies: ["MirrorStore", "NamedSources", "SyncEngine", "SyncOrchestration", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Tests/SyncOrchestrationTests"),
        .testTarget(name: "NamedSourcesTests", dependencies: ["NamedSources"], path: "Tests/NamedSourcesTests"),
        .testTarget(
            name: "MockServerTests",
            dependencies: [
                "HTTPFields", "JSON", "MirrorStore", "MockServer", "Models", "Pagination", "Storage", "fresh-mock", .product(name: "CompressNIO", package: "compress-nio"), .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ],
            path: "Tests/MockServerTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
