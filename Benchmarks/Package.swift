// swift-tools-version:6.0
import PackageDescription

// The benchmark harness lives in its own package so that its tooling (swift-openapi-runtime as the
// peer, swift-argument-parser) never enters the builds of Switchyard's users.
let package = Package(
    name: "SwitchyardBenchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "switchyard-bench", targets: ["SwitchyardBench"])
    ],
    dependencies: [
        .package(name: "Switchyard", path: ".."),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.3.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/vapor/multipart-kit.git", from: "4.7.0"),
        // Counts allocations for `fullmem` (preload its library: see README.md).
        .package(url: "https://github.com/ordo-one/malloc-interposer.git", from: "1.6.0"),
    ],
    targets: [
        // The embedded sample backend, shared with the main package's demo and tests through a symbolic
        // link (it is not a product of the Switchyard package: users never link it), under a module name
        // of its own because target names are unique across a package graph.
        .target(
            name: "BenchSampleBackend",
            dependencies: [
                .product(name: "SwitchyardCrypto", package: "Switchyard"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            path: "Sources/SwitchyardSampleBackend",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("InternalImportsByDefault")]
        ),
        // The plain OpenSSL EVP loops the `crypto` scenario compares Switchyard with.
        .target(name: "CEVPLoop", linkerSettings: [.linkedLibrary("crypto")]),
        .executableTarget(
            name: "SwitchyardBench",
            dependencies: [
                .product(name: "Switchyard", package: "Switchyard"),
                .product(name: "SwitchyardAsyncHTTPClient", package: "Switchyard"),
                "BenchSampleBackend",
                .product(name: "SwitchyardCrypto", package: "Switchyard"),
                .product(name: "SwitchyardMultipart", package: "Switchyard"),
                .product(name: "SwitchyardOutbox", package: "Switchyard"),
                "CEVPLoop",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        ),
    ]
)
