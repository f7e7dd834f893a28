#!/usr/bin/env bash
# Compiles the Swift code blocks of README.md and of every DocC article (Sources/*/*.docc/*.md).
#
# Every ```swift block is compiled unless its first line is `// fragment` (a block that cannot stand
# alone: a Package.swift excerpt, a lone property). The complete blocks of one Markdown file are
# concatenated, in order, into the `main.swift` of one executable target of a generated package,
# so a block may use what an earlier block of the same file declared, and each file is compiled on
# its own. A ```yaml block whose first line is `# file: Name.switchyard.yaml` (or an OpenAPI document's
# `# file: Name.openapi.yaml`) is written into the file's target too, and the target then runs the
# SwitchyardGenBuildPlugin, so generated endpoints can be used by the blocks that follow it.
#
# The generated package lives in $TMPDIR/switchyard-snippets-<checksum of the checkout's path>, one per
# checkout, so two checkouts can run this at once, and depends on this repository by path
# (the repository is this script's directory's parent). Compiler errors point to the Markdown file
# and line. Nothing is run: the blocks only have to compile.
#
# Usage: Scripts/check-snippets.sh [--scratch-path DIR]
#   --scratch-path DIR  SwiftPM's build directory (default: <repo>/.build/snippets)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scratch="$root/.build/snippets"
while [ $# -gt 0 ]; do
    case "$1" in
        --scratch-path) scratch="$2"; shift 2 ;;
        --scratch-path=*) scratch="${1#*=}"; shift ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi

package="${TMPDIR:-/tmp}/switchyard-snippets-$(printf %s "$root" | cksum | cut -d " " -f 1)"
rm -rf "$package/Sources"
mkdir -p "$package/Sources"

# The package identity of a path dependency is its directory's name.
identity="$(basename "$root")"

cd "$root"
files=(README.md)
while IFS= read -r file; do files+=("$file"); done < <(find Sources -path '*.docc/*' -name '*.md' | LC_ALL=C sort)

targets=()        # target names, in order
target_files=()   # the Markdown file of each target
plugin_targets=() # targets that hold a description file

for file in "${files[@]}"; do
    [ -f "$file" ] || continue
    # README.md → README; Sources/Switchyard/Switchyard.docc/Foo.md → Switchyard_Foo
    case "$file" in
        Sources/*.docc/*) base="$(basename "$(dirname "$file")" .docc)_$(basename "$file" .md)" ;;
        *) base="$(basename "$file" .md)" ;;
    esac
    target="Snippets_$(printf '%s' "$base" | tr -c 'A-Za-z0-9_\n' '_')"
    dir="$package/Sources/$target"
    mkdir -p "$dir"
    # One pass over the file: Swift blocks go to main.swift behind a #sourceLocation that points at
    # the Markdown line, yaml blocks that name a description file are written out.
    awk -v md="$root/$file" -v dir="$dir" '
        function flush_block() {
            if (lang == "swift") {
                first = lines[1]; sub(/^[ \t]+/, "", first); sub(/[ \t\r]+$/, "", first)
                if (first == "// fragment") { skipped++; return }
                printf "#sourceLocation(file: \"%s\", line: %d)\n", md, start + 1 >> (dir "/main.swift")
                for (i = 1; i <= n; i++) print lines[i] >> (dir "/main.swift")
                print "#sourceLocation()" >> (dir "/main.swift")
                compiled++
            } else if (lang == "yaml") {
                first = lines[1]
                if (match(first, /^# *file: *[A-Za-z0-9_.-]+\.(switchyard|openapi)\.ya?ml *$/)) {
                    name = first; sub(/^# *file: */, "", name); sub(/ *$/, "", name)
                    for (i = 1; i <= n; i++) print lines[i] > (dir "/" name)
                    close(dir "/" name)
                    descriptions++
                }
            }
        }
        BEGIN { inblock = 0; compiled = 0; skipped = 0; descriptions = 0 }
        {
            if (!inblock && match($0, /^[ \t]*```[ \t]*[A-Za-z0-9_+-]*[ \t]*$/)) {
                indent = $0; sub(/```.*/, "", indent); ilen = length(indent)
                lang = $0; sub(/^[ \t]*```[ \t]*/, "", lang); sub(/[ \t]*$/, "", lang)
                inblock = 1; n = 0; start = NR
                next
            }
            if (inblock && match($0, /^[ \t]*```[ \t]*$/)) {
                inblock = 0
                if (n > 0) flush_block()
                next
            }
            if (inblock) {
                line = $0
                if (ilen > 0 && substr(line, 1, ilen) ~ /^[ \t]*$/) line = substr(line, ilen + 1)
                lines[++n] = line
            }
        }
        END {
            if (inblock) { printf "%s:%d: error: unterminated code block\n", md, start > "/dev/stderr"; exit 1 }
            printf "%d %d %d\n", compiled, skipped, descriptions > (dir "/.counts")
        }
    ' "$file"
    read -r compiled skipped descriptions < "$dir/.counts"
    rm -f "$dir/.counts"
    echo "$file: $compiled block(s) compiled, $skipped fragment(s) skipped"
    if [ "$compiled" -eq 0 ]; then
        rm -rf "$dir"
        continue
    fi
    targets+=("$target")
    target_files+=("$file")
    if [ "$descriptions" -gt 0 ]; then plugin_targets+=("$target"); fi
done

{
    cat <<MANIFEST
// swift-tools-version:6.0
// Generated by Scripts/check-snippets.sh: one executable target per Markdown file.
import PackageDescription

let snippetDependencies: [Target.Dependency] = [
    .product(name: "Switchyard", package: "$identity"),
    .product(name: "SwitchyardAsyncHTTPClient", package: "$identity"),
    .product(name: "SwitchyardTesting", package: "$identity"),
    .product(name: "SwitchyardCrypto", package: "$identity"),
    .product(name: "SwitchyardTelemetry", package: "$identity"),
    .product(name: "SwitchyardMultipart", package: "$identity"),
    .product(name: "SwitchyardURLSession", package: "$identity"),
    .product(name: "SwitchyardInspector", package: "$identity"),
    .product(name: "SwitchyardHAR", package: "$identity"),
    .product(name: "SwitchyardOutbox", package: "$identity"),
    .product(name: "SwitchyardChannels", package: "$identity"),
    .product(name: "SwitchyardAppState", package: "$identity"),
    .product(name: "HTTPTypes", package: "swift-http-types"),
    .product(name: "Logging", package: "swift-log"),
]

let package = Package(
    name: "SwitchyardSnippets",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(path: "$root"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
    ],
    targets: [
MANIFEST
    for target in "${targets[@]}"; do
        plugins=""
        for p in "${plugin_targets[@]+"${plugin_targets[@]}"}"; do
            if [ "$p" = "$target" ]; then plugins=", plugins: [.plugin(name: \"SwitchyardGenBuildPlugin\", package: \"$identity\")]"; fi
        done
        echo "        .executableTarget(name: \"$target\", dependencies: snippetDependencies$plugins),"
    done
    cat <<MANIFEST
    ]
)
MANIFEST
} > "$package/Package.swift"

# Start from the repository's pins so the snippets build against the versions the package is tested with.
if [ -f "$root/Package.resolved" ]; then
    cp "$root/Package.resolved" "$package/Package.resolved"
fi

echo "== building ${#targets[@]} snippet target(s) in $package (scratch path $scratch)"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if swift build --package-path "$package" --scratch-path "$scratch" >"$log" 2>&1; then
    tail -n 1 "$log"
    echo "snippets: all ${#targets[@]} file(s) compile"
    exit 0
fi

# A failed build stops early, so each target is built on its own to find every file that does not
# compile; its errors are printed with the Markdown file's name and line.
failed=0
for i in "${!targets[@]}"; do
    file="${target_files[$i]}"
    target="${targets[$i]}"
    if swift build --package-path "$package" --scratch-path "$scratch" --target "$target" >"$log" 2>&1; then
        continue
    fi
    if grep -qE "^$root/$file:[0-9]+(:[0-9]+)?: error:" "$log" \
        || grep -qE "/Sources/$target/[^:]*:[0-9]+(:[0-9]+)?: error:" "$log"; then
        grep -E "^[^ |].*error: " "$log" | grep -v "emit-module command failed" | sed "s|^$root/||" | sort -u | head -n 60
        echo "FAILED: $file"
        failed=1
    fi
done
if [ "$failed" -eq 0 ]; then
    # The failure is not in a snippet (the package itself or a dependency): show the end of the log.
    tail -n 40 "$log"
    echo "FAILED: the snippet package did not build (see above)"
fi
exit 1
