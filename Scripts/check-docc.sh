#!/usr/bin/env bash
# Builds the documentation of every module that has a DocC catalog (Sources/<Module>/<Module>.docc)
# with `docc convert --analyze` and fails when DocC reports any warning or error: unresolved symbol
# links (``Symbol``) in the articles or in doc comments, topic groups that name missing symbols,
# malformed directives.
#
# The symbol graphs come from the compiler (`swift build --target <Module> -Xswiftc -emit-symbol-graph`),
# built in a scratch directory of their own so the extra flags never invalidate the usual build.
# The repository is this script's directory's parent.
#
# Usage: Scripts/check-docc.sh [--scratch-path DIR] [--only MODULE]
#   --scratch-path DIR  SwiftPM's build directory (default: <repo>/.build/docc)
#   --only MODULE       check that module's catalog alone
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scratch="$root/.build/docc"
only=""
while [ $# -gt 0 ]; do
    case "$1" in
        --scratch-path) scratch="$2"; shift 2 ;;
        --scratch-path=*) scratch="${1#*=}"; shift ;;
        --only) only="$2"; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
docc="$(command -v docc || true)"
if [ -z "$docc" ]; then docc="$(dirname "$(command -v swift)")/docc"; fi
[ -x "$docc" ] || { echo "docc not found (it ships with the Swift toolchain)"; exit 2; }

cd "$root"
catalogs=()
while IFS= read -r catalog; do catalogs+=("$catalog"); done < <(find Sources -mindepth 2 -maxdepth 2 -type d -name '*.docc' | LC_ALL=C sort)
if [ ${#catalogs[@]} -eq 0 ]; then
    echo "no DocC catalogs under Sources/"
    exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
for catalog in "${catalogs[@]}"; do
    module="$(basename "$(dirname "$catalog")")"
    if [ -n "$only" ] && [ "$module" != "$only" ]; then continue; fi
    echo "== $module ($catalog)"
    # A stable directory: the compiler writes the graphs only when it rebuilds the module, so a
    # fresh directory on every run would be empty after an incremental build.
    graphs="$scratch/symbol-graphs/$module"
    mkdir -p "$graphs"
    log="$work/$module-build.log"
    if ! swift build --package-path "$root" --scratch-path "$scratch" --target "$module" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" >"$log" 2>&1; then
        grep -E "error: " "$log" | sort -u | head -n 50 || tail -n 40 "$log"
        echo "FAILED: $module does not build"
        status=1
        continue
    fi
    # Only this module's graph and its extensions of other modules (Module@Other.symbols.json): the
    # dependencies' graphs are written to the same directory and are not part of this catalog.
    input="$work/$module-graphs"
    mkdir -p "$input"
    found=0
    for graph in "$graphs/$module.symbols.json" "$graphs/$module"@*.symbols.json; do
        [ -f "$graph" ] || continue
        cp "$graph" "$input/"
        found=1
    done
    if [ "$found" -eq 0 ]; then
        echo "FAILED: no symbol graph for $module in $graphs (remove $scratch and run again)"
        status=1
        continue
    fi
    output="$work/$module.doccarchive"
    docc_log="$work/$module-docc.log"
    # --ide-console-output: one `file:line:column: warning: message` line per diagnostic, followed by
    # its fix-its, with absolute paths (printed relative to the repository).
    "$docc" convert "$catalog" \
        --additional-symbol-graph-dir "$input" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.switchyard.$module" \
        --analyze --ide-console-output --output-path "$output" >"$docc_log" 2>&1 || true
    problems="$(grep -E "(warning|error): " "$docc_log" || true)"
    if [ -n "$problems" ]; then
        grep -E "(warning|error|fixit): " "$docc_log" | sed "s|$root/||g"
        count="$(printf '%s\n' "$problems" | wc -l | tr -d ' ')"
        echo "FAILED: DocC reported $count problem(s) for $module"
        status=1
    elif [ ! -d "$output" ]; then
        tail -n 40 "$docc_log"
        echo "FAILED: docc convert did not produce $module's archive"
        status=1
    else
        echo "$module: documentation builds without warnings"
    fi
done
exit $status
