#!/usr/bin/env bash
# Runs a command CI runs — the tests, the demo — with a time limit, so that something that hangs fails
# CI in minutes instead of at CI's own limit, and says where it hung.
#
#   bash Scripts/watchdog.sh SECONDS COMMAND [ARGUMENT ...]
#
# The command's output (standard output and standard error together) is shown as it comes. When the
# command outlives SECONDS, the watchdog prints the busy threads of each process under it built from
# this package (by gdb, installed if missing and possible), the Swift Testing tests that started and
# never ended, stops the command's whole process group and exits 124. Interrupted, it stops the
# command too.
set -uo pipefail

if [ $# -lt 2 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
    echo "usage: bash Scripts/watchdog.sh SECONDS COMMAND [ARGUMENT ...]" >&2
    exit 2
fi
limit="$1"
shift
log="$(mktemp)"

# The command leads a process group of its own, so that stopping it stops everything it started.
setsid "$@" >"$log" 2>&1 &
pid=$!
# Shows the output as it comes; ends once the command has ended and its last lines are out.
tail -n +1 -f --pid="$pid" "$log" &
shown=$!

stop() {
    kill -TERM -- "-$pid" 2>/dev/null
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        kill -0 "$pid" 2>/dev/null || break
        sleep 1
    done
    kill -KILL -- "-$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    wait "$shown" 2>/dev/null
}
trap 'stop; rm -f "$log" "$log.started" "$log.ended"; exit 130' INT TERM
trap 'rm -f "$log" "$log.started" "$log.ended"' EXIT

elapsed=0
while kill -0 "$pid" 2>/dev/null; do
    if [ "$elapsed" -ge "$limit" ]; then
        sleep 1  # the last lines the command wrote, out before the report
        kill "$shown" 2>/dev/null
        wait "$shown" 2>/dev/null
        echo
        echo "== watchdog: '$*' still running after $limit s"
        # Tests (or suites) announced as started that never passed, failed or were skipped, by name.
        grep -oE '^◇ (Test|Suite) .* started\.$' "$log" | sed -E 's/^◇ (Test|Suite) (.*) started\.$/\2/' | sort -u >"$log.started"
        grep -oE '^(✔|✘|➜) (Test|Suite) .* (passed|failed|skipped)' "$log" | sed -E 's/^(✔|✘|➜) (Test|Suite) (.*) (passed|failed|skipped).*$/\3/' \
            | sed -E 's/ with [0-9]+ test cases?$//' | sort -u >"$log.ended"
        if ! command -v gdb >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
            echo "== watchdog: installing gdb to show where the processes wait"
            DEBIAN_FRONTEND=noninteractive timeout 300 sh -c 'apt-get update -qq && apt-get install -y -qq gdb' >/dev/null 2>&1 \
                || echo "== watchdog: gdb could not be installed"
        fi
        # Every process in the command's group built from this package (the test runner, the demo):
        # each thread that is not an idle event loop or worker, first frames only.
        for child in $(pgrep -g "$pid" || true); do
            case "$(readlink "/proc/$child/exe" 2>/dev/null)" in */.build/*) ;; *) continue ;; esac
            echo "== watchdog: busy threads of $(basename "$(readlink "/proc/$child/exe")") ($child)"
            if command -v gdb >/dev/null 2>&1; then
                timeout 120 gdb -p "$child" -batch -ex "thread apply all bt 12" 2>&1 | grep -E '^(Thread|#)|ptrace|denied|rror' \
                    | awk -v idle='SelectableEventLoop[.]run|_dispatch_sema4_timedwait|_dispatch_mgr_thread|__CFSocketManager|_dispatch_sigsuspend' \
                        '/^Thread/ { if (block != "" && block !~ idle) printf "%s", block; block = $0 "\n"; next }
                         { block = block $0 "\n" }
                         END { if (block != "" && block !~ idle) printf "%s", block }' \
                    | sed -E 's/ \(([a-z_]+=[^,)]*(, )?)*\)//; s/^(#[0-9]+ +)0x[0-9a-f]+ in /\1/' | cut -c1-200
            else
                echo "  (gdb is not available)"
            fi
        done
        if [ -s "$log.started" ]; then
            echo "== watchdog: tests started and never ended (by name):"
            comm -23 "$log.started" "$log.ended" | sed 's/^/  /'
        fi
        stop
        exit 124
    fi
    sleep 1
    elapsed=$((elapsed + 1))
done
wait "$pid"
status=$?
wait "$shown"
exit "$status"
