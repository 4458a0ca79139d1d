// swift-tools-version: 6.2
// Benchmarks of the HTTP cache and the mock server's Hummingbird peer, kept out of the root
// package so its build stays lean. Run them through ../bench-cache.sh and
// ../bench-mock-server.sh (or `make bench` at the root).

import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its directory, which is whatever the clone is called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "FreshBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
    ],
    targets: [
        .executableTarget(
            name: "HTTPCacheBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "HTTPFields", package: root),
                .product(name: "HTTPCache", package: root),
                .product(name: "Storage", package: root),
                .product(name: "CurlTransport", package: root),
                .product(name: "MockServer", package: root),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Benchmarks/HTTPCacheBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The Hummingbird peer of Tools/bench-mock-server.sh: fresh-mock's server with nothing in it.
        .executableTarget(
            name: "hummingbird-floor",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Peers/HummingbirdFloor"
        ),
    ],
    swiftLanguageModes: [.v6]
)
