#!/usr/bin/env bash
# The OpenAPI corpus check: real API descriptions nobody on this project wrote, generated, compiled
# together and called against a server that follows them.
#
# 1. Generates every document in ../shared/corpora/openapi/ and Tests/OpenAPICorpus/Documents/ with
#    switchyard-gen (named as published: petstore.yaml, resend.yaml; recognised by content), printing
#    each one's time and warnings by kind. The warnings must be exactly those documented in
#    Tests/OpenAPICorpus/expected-warnings.txt.
# 2. Compiles all of them in ONE target of a package that depends on this one by path (petstore and
#    petstore-expanded both declare Pet, Error…: each document's types are in its namespace), timed, with
#    the compiler's peak memory when /usr/bin/time is there; the generated code must not warn.
# 3. Serves petstore-expanded and Resend with connexion (PyPI: its mock resolver, strict validation of
#    requests and responses; Tests/OpenAPICorpus/connexion_server.py) on free loopback ports and runs the
#    calls in Tests/OpenAPICorpus/main.swift through the generated endpoints; the servers are stopped by
#    pid. Needs `pip install "connexion[uvicorn,mock]"`.
#
# Usage: Scripts/check-openapi-corpus.sh [--scratch-path DIR] [--no-connexion]
# With --scratch-path the root's build directory is reused (CI), so only the corpus target compiles.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scratch=""
connexion=1
while [ $# -gt 0 ]; do
    case "$1" in
        --scratch-path) scratch="$2"; shift 2 ;;
        --scratch-path=*) scratch="${1#*=}"; shift ;;
        --no-connexion) connexion=0; shift ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi

identity="$(basename "$root")"
work="${TMPDIR:-/tmp}/switchyard-openapi-corpus"
package="$work/package"
sources="$package/Sources/OpenAPICorpus"
rm -rf "$work" && mkdir -p "$sources"
now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# The generator as the root built it (CI built it with the tests); built here when it is not.
swift build --package-path "$root" --product switchyard-gen >/dev/null 2>&1
generator="$(swift build --package-path "$root" --show-bin-path)/switchyard-gen"

documents=()
for document in "$root"/../shared/corpora/openapi/*.yaml "$root"/../shared/corpora/openapi/*.json "$root"/Tests/OpenAPICorpus/Documents/*; do
    [ -f "$document" ] && documents+=("$document")
done
[ "${#documents[@]}" -gt 0 ] || { echo "no OpenAPI documents found"; exit 1; }

echo "-- generating ${#documents[@]} documents"
printf '%-28s %9s %8s  %s\n' "document" "generate" "warnings" "by kind"
actual="$work/warnings.txt"
: >"$actual"
for document in "${documents[@]}"; do
    name="$(basename "$document")"
    start="$(now)"
    if ! "$generator" generate "$document" --swift "$sources/${name%%.*}API.swift" 2>"$work/$name.log"; then
        cat "$work/$name.log"
        echo "switchyard-gen failed for $name"
        exit 1
    fi
    elapsed="$(seconds "$start" "$(now)")"
    # `file:line:column: warning: message`, the path shortened to the file's name.
    sed -E "s|^.*/([^/]+):([0-9]+):([0-9]+): warning: |\1:\2:\3: warning: |" "$work/$name.log" | grep ": warning: " >>"$actual" || true
    count="$(grep -c ": warning: " "$work/$name.log" || true)"
    # A warning's kind: its message up to the first quote, colon or semicolon.
    kinds="$(grep ": warning: " "$work/$name.log" | sed -E "s/^.*: warning: //; s/[':;(].*$//; s/ +$//" | sort | uniq -c \
        | awk '{ n = $1; $1 = ""; printf "%s%d×%s", sep, n, $0; sep = ", " }' || true)"
    printf '%-28s %8ss %8s  %s\n' "$name" "$elapsed" "$count" "${kinds:-none}"
done
expected="$root/Tests/OpenAPICorpus/expected-warnings.txt"
if ! diff <(grep -v '^#' "$expected" | sed '/^$/d' | sort) <(sort "$actual") >"$work/warnings.diff"; then
    echo "the warnings differ from the documented ones in Tests/OpenAPICorpus/expected-warnings.txt (< documented, > now):"
    cat "$work/warnings.diff"
    exit 1
fi
echo "warnings: only the $(wc -l <"$actual" | tr -d ' ') documented in Tests/OpenAPICorpus/expected-warnings.txt"

cat >"$package/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "OpenAPICorpus",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(path: "$root"),
        // The generated code imports HTTPTypes.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.3.0"),
    ],
    targets: [
        .executableTarget(
            name: "OpenAPICorpus",
            dependencies: [
                .product(name: "Switchyard", package: "$identity"),
                .product(name: "SwitchyardAsyncHTTPClient", package: "$identity"),
                // Resend's multipart uploads.
                .product(name: "SwitchyardMultipart", package: "$identity"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        )
    ]
)
MANIFEST
cp "$root/Tests/OpenAPICorpus/main.swift" "$sources/main.swift"
scratch_args=(--scratch-path "${scratch:-$work/build}")
if [ -n "$scratch" ] && [ -f "$root/Package.resolved" ]; then cp "$root/Package.resolved" "$package/Package.resolved"; fi
swift package --package-path "$package" "${scratch_args[@]}" resolve >/dev/null 2>&1
swift build --package-path "$package" "${scratch_args[@]}" --target Switchyard >/dev/null 2>&1 || true
swift build --package-path "$package" "${scratch_args[@]}" --target SwitchyardAsyncHTTPClient >/dev/null 2>&1 || true
swift build --package-path "$package" "${scratch_args[@]}" --target SwitchyardMultipart >/dev/null 2>&1 || true

echo "-- compiling the ${#documents[@]} documents' Swift in one target"
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -v -o "$work/time.txt")
start="$(now)"
if ! "${timer[@]}" swift build --package-path "$package" "${scratch_args[@]}" >"$work/build.log" 2>&1; then
    grep -E "error:" "$work/build.log" | sort -u | head -n 40 || tail -n 40 "$work/build.log"
    echo "the generated code does not compile"
    exit 1
fi
elapsed="$(seconds "$start" "$(now)")"
peak=""
[ -f "$work/time.txt" ] && peak=", peak memory $(awk -F': ' '/Maximum resident/ { printf "%d MB", $2 / 1024 }' "$work/time.txt")"
echo "compiled in ${elapsed}s$peak"
generated_warnings="$(grep -E "warning: " "$work/build.log" | grep "/Sources/OpenAPICorpus/" | sort -u || true)"
if [ -n "$generated_warnings" ]; then
    echo "the generated code has compiler warnings:"
    echo "$generated_warnings"
    exit 1
fi
binary="$(swift build --package-path "$package" "${scratch_args[@]}" --show-bin-path)/OpenAPICorpus"
"$binary"

[ "$connexion" = 1 ] || exit 0
echo "-- calls through the generated endpoints against connexion (mock resolver, strict validation)"
pids=()
stop_servers() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap stop_servers EXIT
serve() { # $1: name, then connexion_server.py's arguments
    local name="$1"
    shift
    python3 "$root/Tests/OpenAPICorpus/connexion_server.py" "$@" --port-file "$work/$name.port" >"$work/$name.server.log" 2>&1 &
    pids+=("$!")
}
serve petstore "$root/Tests/OpenAPICorpus/Documents/petstore-expanded.yaml" \
    --newer-enum Status=adopted \
    --example '/pets get 200=[{"id":1,"name":"Rex","tag":"dog","status":"available"},{"id":2,"name":"Tom","status":"adopted"}]' \
    --example '/pets post 200={"id":3,"name":"Kitty","status":"pending"}' \
    --example '/pets/{id} get 200={"id":7,"name":"Rex","tag":"dog"}' \
    --example '/pets/{id} get 404={"code":404,"message":"no pet 404"}'
# POST /emails documents no example: connexion's faker (jsf) would make a random id, at times "".
serve resend "$root/../shared/corpora/openapi/resend.yaml" \
    --example '/emails post 200={"id":"49a3999c-0ce1-4ea6-ab68-afcd6dc2e794"}'
for name in petstore resend; do
    for _ in $(seq 1 150); do
        [ -s "$work/$name.port" ] && break
        sleep 0.2
    done
    [ -s "$work/$name.port" ] || { cat "$work/$name.server.log"; echo "connexion did not start for $name"; exit 1; }
done
PETSTORE_URL="http://127.0.0.1:$(cat "$work/petstore.port")/v2" RESEND_URL="http://127.0.0.1:$(cat "$work/resend.port")" \
    bash "$root/Scripts/watchdog.sh" 120 "$binary" || { tail -n 30 "$work"/*.server.log; exit 1; }
