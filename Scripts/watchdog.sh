#!/usr/bin/env bash
# Runs a command CI runs — the tests, the demo — with a time limit, so that something that hangs fails
# CI in minutes instead of at CI's own limit, and says where it hung.
#
#   bash Scripts/watchdog.sh SECONDS COMMAND [ARGUMENT ...]
#
# The command's output goes to standard output as it comes. When the command outlives SECONDS, the
# watchdog prints the busy threads of each process under it built from this package (by gdb, installed
# if missing and possible), the Swift Testing tests that started and never ended, stops the command
# and exits 124.
set -uo pipefail

limit="$1"
shift
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

"$@" >"$log" 2>&1 &
pid=$!
# Shows the output as it comes; ends once the command has ended and its last lines are out.
tail -n +1 -f --pid="$pid" "$log" &
shown=$!

elapsed=0
while kill -0 "$pid" 2>/dev/null; do
    if [ "$elapsed" -ge "$limit" ]; then
        kill "$shown" 2>/dev/null
        wait "$shown" 2>/dev/null
        echo
        echo "== watchdog: '$*' still running after $limit s"
        # Tests (or suites) announced as started that never passed, failed or were skipped.
        grep -oE '^◇ (Test|Suite) .* started\.$' "$log" | sed -E 's/^◇ (Test|Suite) (.*) started\.$/\2/' | sort -u >"$log.started"
        grep -oE '^(✔|✘|➜) (Test|Suite) .* (passed|failed|skipped)' "$log" | sed -E 's/^(✔|✘|➜) (Test|Suite) (.*) (passed|failed|skipped).*$/\3/' \
            | sed -E 's/ with [0-9]+ test cases?$//' | sort -u >"$log.ended"
        if ! command -v gdb >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gdb >/dev/null 2>&1 || true
        fi
        # Every process under this command built from this package (the test runner, the demo), each
        # thread that is not an idle event loop or worker, first frames only.
        descendants="$pid"
        frontier="$pid"
        while [ -n "$frontier" ]; do
            next=""
            for parent in $frontier; do next="$next $(pgrep -P "$parent" | tr '\n' ' ')"; done
            frontier="$(echo $next)"
            descendants="$descendants $frontier"
        done
        for child in $descendants; do
            case "$(readlink "/proc/$child/exe" 2>/dev/null)" in */.build/*) ;; *) continue ;; esac
            echo "== watchdog: busy threads of $(basename "$(readlink "/proc/$child/exe")") ($child)"
            if command -v gdb >/dev/null 2>&1; then
                gdb -p "$child" -batch -ex "thread apply all bt 12" 2>/dev/null | grep -E '^(Thread|#)' \
                    | awk '/^Thread/ { if (block != "" && block !~ idle) printf "%s", block; block = $0 "\n"; next }
                           { block = block $0 "\n" }
                           END { if (block != "" && block !~ idle) printf "%s", block }' \
                        idle='SelectableEventLoop\.run|_dispatch_sema4_timedwait|_dispatch_mgr_thread|__CFSocketManager|_dispatch_sigsuspend' \
                    | sed -E 's/ \(([a-z_]+=[^,)]*(, )?)*\)//; s/^(#[0-9]+ +)0x[0-9a-f]+ in /\1/' | cut -c1-200
            else
                echo "  (gdb is not available)"
            fi
        done
        if [ -s "$log.started" ]; then
            echo "== watchdog: tests started and never ended:"
            comm -23 "$log.started" "$log.ended" | sed 's/^/  /'
        fi
        rm -f "$log.started" "$log.ended"
        for child in $descendants; do kill "$child" 2>/dev/null; done
        wait "$pid" 2>/dev/null
        exit 124
    fi
    sleep 1
    elapsed=$((elapsed + 1))
done
wait "$pid"
status=$?
wait "$shown"
exit "$status"
