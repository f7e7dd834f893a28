// swift-tools-version:6.0
import PackageDescription

/// Settings shared by every target: Swift 6 language mode (the default for this tools version)
/// plus upcoming features that keep the public surface honest.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Switchyard",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Switchyard", targets: ["Switchyard"]),
        // The kernel alone: what a transport or a stage library builds on (Switchyard re-exports it).
        .library(name: "SwitchyardCore", targets: ["SwitchyardCore"]),
        .library(name: "SwitchyardAsyncHTTPClient", targets: ["SwitchyardAsyncHTTPClient"]),
        .library(name: "SwitchyardTesting", targets: ["SwitchyardTesting"]),
        .library(name: "SwitchyardCrypto", targets: ["SwitchyardCrypto"]),
        .library(name: "SwitchyardTelemetry", targets: ["SwitchyardTelemetry"]),
        .library(name: "SwitchyardURLSession", targets: ["SwitchyardURLSession"]),
        .library(name: "SwitchyardMultipart", targets: ["SwitchyardMultipart"]),
        .library(name: "SwitchyardHAR", targets: ["SwitchyardHAR"]),
        .library(name: "SwitchyardInspector", targets: ["SwitchyardInspector"]),
        .library(name: "SwitchyardOutbox", targets: ["SwitchyardOutbox"]),
        .library(name: "SwitchyardChannels", targets: ["SwitchyardChannels"]),
        .library(name: "SwitchyardAppState", targets: ["SwitchyardAppState"]),
        .executable(name: "switchyard-gen", targets: ["switchyard-gen"]),
        .plugin(name: "SwitchyardGenBuildPlugin", targets: ["SwitchyardGenBuildPlugin"]),
        .plugin(name: "GenerateEndpoints", targets: ["GenerateEndpoints"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        // 1.37.0: the version tested; its `Configuration.tracing` is what the transport reads.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.30.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.24.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.1.0"),
        .package(url: "https://github.com/swift-otel/swift-w3c-trace-context.git", from: "1.0.0"),
        .package(url: "https://github.com/vapor/multipart-kit.git", from: "4.7.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/mattpolzin/OpenAPIKit.git", from: "6.4.0"),
        // Tests only: runs the tools the tests check against (openssl, python3, switchyard-gen) and
        // waits for them without Foundation's Process, whose waitUntilExit can miss a child's exit.
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.0"),
        // The inspector's local web server; only SwitchyardInspector depends on it.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // Hummingbird's own lifecycle (already in its graph): the inspector stops its server gracefully.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // The outbox's store only: SQLite (its amalgamation, built in) behind SwiftNIO's thread pool.
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.0"),
        // The channels' WebSocket client (framing, control frames, close handshake); only
        // SwitchyardChannels depends on it. Up to the next minor: the channels run its connection
        // handler through its `WSInternal` SPI to see the upgrade's answer (see WebSocketConnector).
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", .upToNextMinor(from: "1.6.2")),
    ],
    targets: [
        // The utility drawer the kernel and the features share — percent-encoding, a JSON byte scanner,
        // FNV-1a, private files, a chunk queue — as `package` declarations of a target no consumer
        // imports: none of it is the kernel's contract. Foundation only.
        .target(name: "SwitchyardSupport", swiftSettings: swiftSettings),
        // The kernel: stages, pipeline, transport, call context, request, response, errors and ids.
        // swift-http-types, swift-log and the support drawer only; it imports no feature (sessions,
        // redirects, cache, logging), and the compiler keeps it so. What a transport must know of a
        // download (its target, its sink, its resume record) is stated here, as keys.
        .target(
            name: "SwitchyardCore",
            dependencies: [
                "SwitchyardSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The features, built on the kernel, which it re-exports: importing Switchyard is enough.
        .target(
            name: "Switchyard",
            dependencies: [
                "SwitchyardCore",
                "SwitchyardSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SwitchyardAsyncHTTPClient",
            dependencies: [
                "SwitchyardCore",
                // SHA-256 of public keys for pinning, through the BoringSSL that NIOSSL already links:
                // no system library, no second BoringSSL.
                "CNIOSSLDigest",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                // Only to recognise the no-op tracer (AsyncHTTPClient depends on it already).
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                // `Data` over a `ByteBuffer`'s own storage, for streamed answers; AsyncHTTPClient
                // already depends on it.
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // Test doubles, the stage harness and the transport conformance suite with its loopback server
        // (SwiftNIO, already in the graph of the AsyncHTTPClient transport).
        // One C function over NIOSSL's BoringSSL SHA-256 (its symbols are prefixed CNIOBoringSSL_); it
        // links against the NIOSSL that the AsyncHTTPClient transport depends on.
        .target(name: "CNIOSSLDigest", dependencies: [.product(name: "NIOSSL", package: "swift-nio-ssl")]),
        .target(
            name: "SwitchyardTesting",
            dependencies: [
                "Switchyard",
                "SwitchyardSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // The loopback server's optional WebSocket (the sample backend's quotes channel).
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // OpenSSL 3 (libcrypto/libssl) as a system library, with a small C shim for macros and
        // OSSL_PARAM-based calls.
        .systemLibrary(
            name: "COpenSSL",
            path: "Sources/COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl"])]
        ),
        // Cryptography primitives over OpenSSL EVP: AES-GCM/CBC/ECB, HMAC, digests, HKDF, random.
        .target(
            name: "SwitchyardCrypto",
            dependencies: ["Switchyard", "COpenSSL"],
            swiftSettings: swiftSettings
        ),
        // multipart/form-data bodies, serialised by vapor/multipart-kit.
        .target(
            name: "SwitchyardMultipart",
            dependencies: [
                "SwitchyardCore",
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // HAR 1.2 recording of calls (HARRecorder, HARRecordingStage, the HAR values): opt-in, so an
        // app or server that imports Switchyard alone does not link it.
        .target(name: "SwitchyardHAR", dependencies: ["Switchyard", "SwitchyardSupport"], swiftSettings: swiftSettings),
        // The live inspector: a local page (Hummingbird 2, bound to 127.0.0.1 behind a token) listing
        // the calls a HARRecorder records, with their per-stage traces, over Server-Sent Events.
        .target(
            name: "SwitchyardInspector",
            dependencies: [
                "Switchyard", "SwitchyardHAR",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Page")],
            swiftSettings: swiftSettings
        ),
        // The durable outbox: calls stored in SQLite as the app described them and sent once each through
        // the service's pipeline. The only target that links SQLite; SwitchyardCrypto for file checksums.
        .target(
            name: "SwitchyardOutbox",
            dependencies: [
                "Switchyard", "SwitchyardCrypto", "SwitchyardSupport",
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // What an app's screens use: observable loaders, the paginator, and the completion-handler API
        // over Dispatch. A server that imports Switchyard links none of it.
        .target(
            name: "SwitchyardAppState",
            dependencies: ["Switchyard"],
            swiftSettings: swiftSettings
        ),
        // WebSocket channels through a service's pipeline: the upgrade through its stages, messages sealed
        // with its encryption stage's keys. The only target that links swift-websocket.
        .target(
            name: "SwitchyardChannels",
            dependencies: [
                // The AsyncHTTPClient transport for its public-key pinning: a channel of a pinned service
                // is held to the same pins.
                "Switchyard", "SwitchyardCrypto", "SwitchyardAsyncHTTPClient",
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "WSCore", package: "swift-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        // A second transport over URLSession (FoundationNetworking on Linux).
        .target(
            name: "SwitchyardURLSession",
            dependencies: ["SwitchyardCore", "SwitchyardSupport", .product(name: "HTTPTypes", package: "swift-http-types")],
            swiftSettings: swiftSettings
        ),
        // Code generation from API descriptions — internal tooling, not a product users link: the parser,
        // validator and emitters (Yams for YAML with line and column), the OpenAPI 3.0/3.1 importer
        // (OpenAPIKit, with OpenAPIKitCompat turning 3.0 documents into 3.1 ones), the `switchyard-gen`
        // CLI, a build-tool plugin and a command plugin.
        .target(
            name: "SwitchyardGenCore",
            dependencies: [
                .product(name: "Yams", package: "Yams"),
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
                .product(name: "OpenAPIKitCompat", package: "OpenAPIKit"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "switchyard-gen",
            dependencies: ["SwitchyardGenCore", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/SwitchyardGenCLI",
            swiftSettings: swiftSettings
        ),
        .plugin(name: "SwitchyardGenBuildPlugin", capability: .buildTool(), dependencies: ["switchyard-gen"]),
        .plugin(
            name: "GenerateEndpoints",
            capability: .command(
                intent: .custom(
                    verb: "generate-endpoints",
                    description: "Writes the Swift and the Markdown API reference for the package's API descriptions."
                ),
                permissions: [.writeToPackageDirectory(reason: "writes the generated Swift and Markdown for inspection")]
            ),
            dependencies: ["switchyard-gen"]
        ),
        // Metrics (swift-metrics) and tracing (swift-distributed-tracing, W3C trace context) stages.
        .target(
            name: "SwitchyardTelemetry",
            dependencies: [
                "SwitchyardCore",
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
            ],
            swiftSettings: swiftSettings
        ),
        // The embedded sample backend: SwitchyardTesting's loopback server (its sources, through the
        // symbolic link Samples/SampleBackend/LoopbackServer, compiled into this module) with the sample
        // modules added. Used by the demo, the tests and the benchmarks (which reach it through a
        // symbolic link of their own); deliberately not a product.
        .target(
            name: "SwitchyardSampleBackend",
            dependencies: [
                "SwitchyardCrypto",
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            path: "Samples/SampleBackend",
            swiftSettings: swiftSettings
        ),
        // The samples are executable targets and no products: a target of a dependency that a product
        // reaches and that applies SwitchyardGenBuildPlugin makes SwiftPM build switchyard-gen (Yams,
        // OpenAPIKit, ArgumentParser) for every consumer. `swift run switchyard-demo` in a clone runs
        // them all the same (a root package's executable targets are runnable by their target names).
        .executableTarget(
            name: "switchyard-demo",
            dependencies: [
                "Switchyard", "SwitchyardAsyncHTTPClient", "SwitchyardCrypto", "SwitchyardSampleBackend", "SwitchyardTelemetry",
                "SwitchyardMultipart", "SwitchyardInspector", "SwitchyardOutbox", "SwitchyardChannels",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Samples/Demo",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "SwitchyardGenBuildPlugin")]
        ),
        // Drives a screen's state — a resource loader and an observable list — against the sample
        // backend, printing each transition it observes.
        .executableTarget(
            name: "switchyard-screen",
            dependencies: ["Switchyard", "SwitchyardAppState", "SwitchyardAsyncHTTPClient", "SwitchyardSampleBackend"],
            path: "Samples/Screen",
            swiftSettings: swiftSettings
        ),
        // Channel round trips against the raw swift-websocket client, and a slow reader's peak memory.
        .executableTarget(
            name: "switchyard-channel-bench",
            dependencies: [
                "Switchyard", "SwitchyardAsyncHTTPClient", "SwitchyardChannels",
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Samples/ChannelBench",
            swiftSettings: swiftSettings
        ),
        // Seals and opens bodies from the command line for the PyCA interoperability test.
        .executableTarget(
            name: "switchyard-crypto-tool",
            dependencies: ["SwitchyardCrypto"],
            path: "Samples/CryptoTool",
            swiftSettings: swiftSettings
        ),
        // The kernel alone: the pipeline-ordering tests, which import nothing but SwitchyardCore.
        .testTarget(name: "SwitchyardCoreTests", dependencies: ["SwitchyardCore"], swiftSettings: swiftSettings),
        .testTarget(
            name: "SwitchyardTests",
            dependencies: [
                "Switchyard", "SwitchyardAppState", "SwitchyardHAR", "SwitchyardSupport", "SwitchyardTesting",
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // What the test targets share: the sample backend as a fixture of services, and the runners of
        // the tools and Python servers they check against. Not a product.
        .target(
            name: "SwitchyardTestSupport",
            dependencies: [
                "Switchyard", "SwitchyardAsyncHTTPClient", "SwitchyardSampleBackend",
                .product(name: "Subprocess", package: "swift-subprocess"),
            ],
            path: "Tests/SwitchyardTestSupport",
            swiftSettings: swiftSettings
        ),
        // The AsyncHTTPClient transport and the whole pipeline over the wire against the sample backend;
        // the suites that compare both transports' behaviour on the wire also use the URLSession one.
        .testTarget(
            name: "SwitchyardAsyncHTTPClientTests",
            dependencies: [
                "Switchyard", "SwitchyardAsyncHTTPClient", "SwitchyardCrypto", "SwitchyardSampleBackend", "SwitchyardTesting",
                "SwitchyardTelemetry", "SwitchyardURLSession", "SwitchyardMultipart", "SwitchyardTestSupport", "SwitchyardAppState",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SwitchyardURLSessionTests",
            dependencies: [
                "Switchyard", "SwitchyardURLSession", "SwitchyardTesting", "SwitchyardSampleBackend", "SwitchyardMultipart",
                "SwitchyardCrypto", "SwitchyardTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        // The client process of the outbox's kill harness (Tests/Outbox/kill_harness.py): enqueues and
        // drains orders through a fault proxy, killed and restarted at random. Test support, not a product.
        .executableTarget(
            name: "outbox-order-client",
            dependencies: ["SwitchyardOutbox", "SwitchyardAsyncHTTPClient"],
            path: "Samples/OutboxOrderClient",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SwitchyardOutboxTests",
            dependencies: ["Switchyard", "SwitchyardOutbox", "SwitchyardTesting", "SwitchyardAsyncHTTPClient", "SwitchyardTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SwitchyardMultipartTests",
            dependencies: ["Switchyard", "SwitchyardMultipart", "SwitchyardCrypto", "SwitchyardTestSupport"],
            swiftSettings: swiftSettings
        ),
        // HAR export, each file checked by the independent `jsonschema` against the HAR 1.2 schema.
        .testTarget(
            name: "SwitchyardHARTests",
            dependencies: [
                "Switchyard", "SwitchyardHAR", "SwitchyardAsyncHTTPClient", "SwitchyardCrypto", "SwitchyardSampleBackend",
                "SwitchyardTesting",
                "SwitchyardMultipart", "SwitchyardTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        // Servers we did not write: nginx, httpbin under gunicorn, and the Python reference backend
        // written from Docs/WireFormat.md.
        .testTarget(
            name: "SwitchyardRealServerTests",
            dependencies: [
                "Switchyard", "SwitchyardAsyncHTTPClient", "SwitchyardURLSession", "SwitchyardCrypto", "SwitchyardMultipart",
                "SwitchyardTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SwitchyardInspectorTests",
            dependencies: [
                "SwitchyardInspector", "Switchyard", "SwitchyardHAR", "SwitchyardTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SwitchyardTestingTests",
            // The sample backend, its modules' encryption and a real transport: the replay tests record
            // the demo's modules over the wire.
            dependencies: [
                "Switchyard", "SwitchyardTesting", "SwitchyardSampleBackend", "SwitchyardCrypto", "SwitchyardAsyncHTTPClient",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SwitchyardTelemetryTests",
            dependencies: [
                "SwitchyardTelemetry", "SwitchyardTesting",
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SwitchyardGenTests",
            // SwitchyardMultipart: the multipart uploads generated from OpenAPI/Uploads.openapi.yaml.
            dependencies: [
                "SwitchyardGenCore", "Switchyard", "SwitchyardTesting", "SwitchyardMultipart",
                .product(name: "Subprocess", package: "swift-subprocess"),
            ],
            exclude: ["Golden"],
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "SwitchyardGenBuildPlugin")]
        ),
        // Channels against the Python `websockets` server and an encrypted peer written from the wire format.
        .testTarget(
            name: "SwitchyardChannelsTests",
            dependencies: [
                "Switchyard", "SwitchyardChannels", "SwitchyardCrypto", "SwitchyardAsyncHTTPClient", "SwitchyardTestSupport",
                "SwitchyardSampleBackend",
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SwitchyardCryptoTests",
            // The sample backend and the AsyncHTTPClient transport: an encrypted module over the wire.
            dependencies: [
                "SwitchyardCrypto", "SwitchyardTesting", "SwitchyardAsyncHTTPClient", "SwitchyardSampleBackend", "SwitchyardTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
