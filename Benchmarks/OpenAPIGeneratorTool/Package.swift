// swift-tools-version:6.0
import PackageDescription

// Builds swift-openapi-generator's command-line tool for the OpenAPI generation benchmark
// (Benchmarks/Scripts/openapi_generation_bench.py): `swift build -c release --product swift-openapi-generator`.
// A package of its own so that the generator (OpenAPIKit, swift-algorithms) never enters the builds of
// Switchyard or of its benchmark harness.
let package = Package(
    name: "OpenAPIGeneratorTool",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.0")
    ],
    targets: []
)
