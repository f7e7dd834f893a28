#!/usr/bin/env bash
# Builds two packages that depend on this repository the way a user's package does, by path:
#
# 1. a runtime consumer: one file importing every runtime product (Switchyard, both transports,
#    SwitchyardTesting, SwitchyardTelemetry, SwitchyardMultipart) that runs the transport conformance
#    suite, on its own loopback server, over a transport of its own (a wrapper of the AsyncHTTPClient
#    transport) and fails unless every case passes. It fails too if the build compiles or
#    links a generator dependency (Yams, OpenAPIKit, ArgumentParser, SwitchyardGenCore, switchyard-gen)
#    or a system library in $forbidden_system_libraries, or an opt-in product's modules (the outbox and
#    SQLite, the inspector and Hummingbird, the channels and swift-websocket:
#    $optional_modules), or compiles swift-crypto's BoringSSL beside
#    NIOSSL's, and prints the modules it compiled and its time.
# 2. a plugin consumer: one target that applies SwitchyardGenBuildPlugin to an OpenAPI document (a copy of
#    Tests/SwitchyardGenTests/OpenAPI/Shapes.openapi.json), registers the generated service and runs.
#
# By default each builds in a scratch path of its own under $TMPDIR, from clean: the runtime consumer's
# module list is then the complete list. With --scratch-path the root's build directory is reused (CI:
# only the consumers' own modules compile); the generator's tool binary is removed first, so that a
# build plan that needs it relinks it and is caught, and the runtime consumer's link list is checked for
# the generator's objects, which were built by the root and so do not compile again.
#
# Usage: Scripts/check-consumer.sh [--scratch-path DIR]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scratch=""
while [ $# -gt 0 ]; do
    case "$1" in
        --scratch-path) scratch="$2"; shift 2 ;;
        --scratch-path=*) scratch="${1#*=}"; shift ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi

# The package identity of a path dependency is its directory's name.
identity="$(basename "$root")"
work="${TMPDIR:-/tmp}/switchyard-consumers"
generator_modules='Yams|OpenAPIKit|OpenAPIKit30|OpenAPIKitCompat|OpenAPIKitCore|ArgumentParser|ArgumentParserToolInfo|SwitchyardGenCore|switchyard_gen'
# The opt-in products' own dependencies: a consumer of the runtime products compiles and links neither
# SQLite (the outbox's store) nor Hummingbird (the inspector's server),
# nor swift-websocket (the channels' client), nor those products themselves.
optional_modules='SwitchyardOutbox|SQLiteNIO|CSQLite|SwitchyardInspector|Hummingbird|HummingbirdCore|HummingbirdHTTP1|SwitchyardChannels|WSClient|WSCore|SwitchyardHAR|SwitchyardAppState'
# System libraries a runtime consumer must not need.
forbidden_system_libraries='COpenSSL'
# swift-crypto's BoringSSL: the transport hashes with the one NIOSSL already compiles.
second_boringssl='CCryptoBoringSSL|CCryptoBoringSSLShims|CryptoBoringWrapper'

scratch_args() { # $1: the consumer's name
    if [ -n "$scratch" ]; then echo "--scratch-path $scratch"; else echo "--scratch-path $work/$1.build"; fi
}

write_runtime_consumer() {
    local dir="$work/runtime"
    rm -rf "$dir" && mkdir -p "$dir/Sources/RuntimeConsumer"
    cat >"$dir/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "RuntimeConsumer",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(path: "$root")],
    targets: [
        .executableTarget(
            name: "RuntimeConsumer",
            dependencies: [
                .product(name: "Switchyard", package: "$identity"),
                .product(name: "SwitchyardAsyncHTTPClient", package: "$identity"),
                .product(name: "SwitchyardURLSession", package: "$identity"),
                .product(name: "SwitchyardTesting", package: "$identity"),
                .product(name: "SwitchyardTelemetry", package: "$identity"),
                .product(name: "SwitchyardMultipart", package: "$identity"),
            ]
        )
    ]
)
EOF
    cat >"$dir/Sources/RuntimeConsumer/main.swift" <<'EOF'
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardMultipart
import SwitchyardTelemetry
import SwitchyardTesting
import SwitchyardURLSession

import Foundation
import Synchronization

/// A transport of the consumer's own, outside the Switchyard package: it wraps the URLSession
/// transport and counts what passes through it, as an app's own transport would wrap its stack.
/// (Not the AsyncHTTPClient transport: AsyncHTTPClient drops the bytes of the read that ends a
/// broken connection, and fails `stream-break-delivers-what-arrived`.)
final class CountingTransport: Transport {
    let inner = URLSessionTransport(maximumResponseBodySize: 4 << 20)
    let calls = Atomic(0)
    var observesCallCancellation: Bool { inner.observesCallCancellation }

    func send(_ request: Request, context: CallContext) async throws -> Response {
        calls.add(1, ordering: .relaxed)
        return try await inner.send(request, context: context)
    }
}

let transport = CountingTransport()
let outcomes = await TransportConformance(responseLimit: 4 << 20).run(transport)
for outcome in outcomes { print(outcome) }
let failed = outcomes.filter { !$0.passed }
print("runtime consumer: \(outcomes.count - failed.count) of \(outcomes.count) conformance cases passed, \(transport.calls.load(ordering: .relaxed)) calls through its own transport")
if !failed.isEmpty || outcomes.count != TransportConformance.caseNames.count { exit(1) }
EOF
}

write_plugin_consumer() {
    local dir="$work/plugin"
    rm -rf "$dir" && mkdir -p "$dir/Sources/PluginConsumer"
    cat >"$dir/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "PluginConsumer",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(path: "$root"),
        // The generated code imports HTTPTypes.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.3.0"),
    ],
    targets: [
        .executableTarget(
            name: "PluginConsumer",
            dependencies: [
                .product(name: "Switchyard", package: "$identity"),
                .product(name: "SwitchyardTesting", package: "$identity"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            plugins: [.plugin(name: "SwitchyardGenBuildPlugin", package: "$identity")]
        )
    ]
)
EOF
    cp "$root/Tests/SwitchyardGenTests/OpenAPI/Shapes.openapi.json" "$dir/Sources/PluginConsumer/"
    cat >"$dir/Sources/PluginConsumer/main.swift" <<'EOF'
import Switchyard
import SwitchyardTesting

let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
try ShapesAPI.registerShapes(in: registry, transport: MockTransport(.status(.ok)))
print("plugin consumer: the Shapes service generated and registered")
EOF
}

# Resolves first so that the bin path is known and the timed build is the build alone.
build() { # $1: consumer name, $2: log file, $3: -v for the commands (and so the modules) in the log
    local dir="$work/$1"
    # shellcheck disable=SC2046
    swift package --package-path "$dir" $(scratch_args "$1") resolve >/dev/null
    # shellcheck disable=SC2046
    bin="$(swift build --package-path "$dir" $(scratch_args "$1") --show-bin-path)"
    local start=$SECONDS
    # shellcheck disable=SC2046
    if ! swift build ${3:-} --package-path "$dir" $(scratch_args "$1") >"$2" 2>&1; then
        grep -E "error:" "$2" | head -n 40 || tail -n 40 "$2"
        echo "the $1 consumer did not build"
        exit 1
    fi
    elapsed=$((SECONDS - start))
}

mkdir -p "$work"

echo "-- runtime consumer ($work/runtime)"
write_runtime_consumer
runtime_log="$work/runtime.log"
if [ -n "$scratch" ]; then
    # A plan that needs the generator's tool relinks it (its modules may be up to date from the root).
    rm -f "$(swift build --package-path "$root" --scratch-path "$scratch" --show-bin-path)/switchyard-gen-tool"
else
    rm -rf "$work/runtime.build"
fi
build runtime "$runtime_log" -v
compiled="$(grep -oE -- "-module-name [A-Za-z0-9_]+" "$runtime_log" | awk '{print $2}' | sort -u | tr '\n' ' ')"
echo "built in ${elapsed}s; modules compiled: $compiled"
failures=""
offending="$(grep -oE -- "-module-name ($generator_modules)( |$)" "$runtime_log" | awk '{print $2}' | sort -u | tr '\n' ' ' || true)"
[ -z "$offending" ] || failures+="compiled generator modules: $offending"$'\n'
if grep -q -- "switchyard-gen-tool" "$runtime_log"; then failures+="built the switchyard-gen tool"$'\n'; fi
linked="$(grep -oE "/($generator_modules)(-tool)?\.build/" "$bin/RuntimeConsumer.product/Objects.LinkFileList" | sort -u | tr '\n' ' ' || true)"
[ -z "$linked" ] || failures+="linked generator objects: $linked"$'\n'
optional="$(grep -oE -- "-module-name ($optional_modules)( |$)" "$runtime_log" | awk '{print $2}' | sort -u | tr '\n' ' ' || true)"
[ -z "$optional" ] || failures+="compiled opt-in products' modules: $optional"$'\n'
optional="$(grep -oE "/($optional_modules)\.build/" "$bin/RuntimeConsumer.product/Objects.LinkFileList" | sort -u | tr '\n' ' ' || true)"
[ -z "$optional" ] || failures+="linked opt-in products' objects: $optional"$'\n'
system="$(grep -oE "/($forbidden_system_libraries)/" "$runtime_log" | sort -u | tr '\n' ' ' || true)"
[ -z "$system" ] || failures+="used system libraries: $system"$'\n'
boringssl="$(grep -oE "/($second_boringssl)\.build/" "$runtime_log" | sort -u | tr '\n' ' ' || true)"
[ -z "$boringssl" ] || failures+="compiled a second BoringSSL beside NIOSSL's: $boringssl"$'\n'
if [ -n "$failures" ]; then
    echo "a consumer of the runtime products builds what it does not use:"
    printf '%s' "$failures"
    exit 1
fi
"$bin/RuntimeConsumer"

echo "-- plugin consumer ($work/plugin)"
write_plugin_consumer
plugin_log="$work/plugin.log"
[ -n "$scratch" ] || rm -rf "$work/plugin.build"
build plugin "$plugin_log"
grep -q "Generating ShapesAPI.swift from Shapes.openapi.json" "$plugin_log" || { echo "the build plugin did not generate ShapesAPI.swift"; exit 1; }
echo "built in ${elapsed}s, ShapesAPI.swift generated by SwitchyardGenBuildPlugin"
"$bin/PluginConsumer"
