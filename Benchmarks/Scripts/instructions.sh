#!/usr/bin/env bash
# Instructions per call of one benchmark contender, counted by callgrind, with its native time beside.
#
# Usage:
#   Benchmarks/Scripts/instructions.sh SCENARIO CONTENDER [--calls N] [--warmup W] [--native-runs K] [-- SCENARIO-ARGS...]
#
#   SCENARIO   chain, scale, fullmem, cache, loopback or outbox (the switchyard-bench subcommands with
#              --contender; scale's contender is its axis, and -- --point N the point on it)
#   CONTENDER  one of the scenario's contenders (Benchmarks/README.md lists them; an unknown name
#              is refused with the scenario's list)
#   --calls N  measured calls of the shorter run (default: chain 2000, cache 2000, fullmem 1000,
#              loopback 1024, outbox 200); the longer run makes 2N
#   --warmup W calls before the measured ones in both runs (default 1024)
#   --native-runs K  native runs at each count for the wall and CPU figures (default 3; medians)
#   --native-scale S the native runs make S*N and 2*S*N calls (default 10: the process CPU time
#                    is read to the millisecond, so they need more calls than callgrind does)
#   SCENARIO-ARGS    passed on as they are, e.g. -- --stages 8 --async-stages, or -- --concurrency 32
#
# It runs the release binary (Benchmarks/.build/release/switchyard-bench, or $SWITCHYARD_BENCH; build
# it first: cd Benchmarks && swift build -c release) with `SCENARIO --contender CONTENDER` under
# `valgrind --tool=callgrind` twice, making W + N and W + 2N calls, and prints
#
#   instructions/call = (Ir(2N) - Ir(N)) / N
#
# The difference cancels everything both runs share — process start-up, the runtime's and the
# scenario's set-up (registries, keys, the sample backend), the warm-up and the shut-down — so what
# is left is N calls' worth of steady-state instructions. Instruction counts do not move with the
# machine's load, as wall time does; each contender runs alone in its process, with no peer
# interleaved. Both runs set SWIFT_DETERMINISTIC_HASHING=1: with the per-process random seed, the
# dictionaries' and sets' probe sequences (JSONDecoder's among them) change from run to run, and a
# count moved by up to 4,000 instructions a call; with the fixed seed, three runs agree within 10.
#
# What is counted, per scenario:
#   chain     everything (one task, no server).
#   scale     everything (in-memory transports, no server; `inflight` runs N tasks at once).
#   cache     everything on every thread; the memory and disk hits never reach the in-process sample
#             backend; `network` does, and its server's instructions are counted with it.
#   fullmem   the client only: callgrind stops collecting while the in-process server's
#             InProcessBackend.respond runs (--toggle-collect), as the scenario subtracts its time.
#   loopback  the client only: --separate-threads=yes writes one profile per thread; the sample
#             backend serves on an event loop thread of its own, found as the thread whose profile
#             holds LoopbackHTTPHandler, and left out; every other thread (the caller's tasks,
#             AsyncHTTPClient's event loops, the main thread) is summed. The server's figure is printed
#             beside it.
#   outbox    the client only, as loopback: the sample backend's thread is left out (every contender
#             sends one call first, so that thread is there to find even for `enqueue`).
#
# Beside it, the same command runs natively (no valgrind) K times at S*N and 2*S*N calls: `wall` is
# the median of the harness's own time per measured call in the longer run (for loopback, wall time
# per request at the run's concurrency, not CPU); `cpu` is the median of
# (user+sys(2SN) - user+sys(SN)) / SN of the whole process — client and any in-process server
# together, so for fullmem and loopback it includes the server's share that the instruction count
# leaves out.
#
# The last line is one machine-readable summary:
#   instructions SCENARIO CONTENDER ir=<per call> wall=<ns> cpu=<ns> args=<SCENARIO-ARGS>
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }

[[ $# -ge 2 ]] || usage
scenario=$1 contender=$2
shift 2
calls="" warmup=1024 native_runs=3 native_scale=10 extra=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --calls) calls=$2; shift 2 ;;
        --warmup) warmup=$2; shift 2 ;;
        --native-runs) native_runs=$2; shift 2 ;;
        --native-scale) native_scale=$2; shift 2 ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) usage ;;
        *) echo "unknown option $1 (scenario arguments go after --)" >&2; exit 2 ;;
    esac
done

count_option=--requests valgrind_extra=() per_thread=no run=()
case $scenario in
    chain|scale) calls=${calls:-2000} ;;
    cache) calls=${calls:-2000}; count_option=--calls ;;
    fullmem)
        calls=${calls:-1000}
        # InProcessBackend.respond(method:target:headerFields:body:) (mangled; `tF` ends the function's
        # own name, not its closures'): the server's whole work in fullmem, synchronous.
        # --toggle-collect sets --collect-atstart=no as it is read: the yes must come after it.
        valgrind_extra=("--toggle-collect=*18BenchSampleBackend09InProcessC0C7respond6method6target12headerFields4body*tF" --collect-atstart=yes)
        ;;
    loopback) calls=${calls:-1024}; per_thread=yes; valgrind_extra=(--separate-threads=yes) ;;
    outbox) calls=${calls:-200}; count_option=--calls; per_thread=yes; valgrind_extra=(--separate-threads=yes) ;;
    *) echo "scenario must be chain, scale, fullmem, cache, loopback or outbox" >&2; exit 2 ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
binary=${SWITCHYARD_BENCH:-$here/../.build/release/switchyard-bench}
[[ -x $binary ]] || { echo "no $binary: cd Benchmarks && swift build -c release" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/switchyard-instructions.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Valgrind 3.19 (Debian 12's) cannot run the binary as it is built, so callgrind runs a copy of it
# and of its non-system libraries in $work/lib, changed only where valgrind needs it:
# - the copies have no DWARF (objcopy --strip-debug): valgrind gives up on the binary's DWARF 5
#   ("Possibly corrupted debuginfo file") and crashes in the toolchain libraries'; the symbol
#   tables stay, so the profiles still name every function;
# - libdispatch's read-only segment is made writable: its main thread parks in sigsuspend with a
#   constant mask in .rodata, which valgrind 3.19 writes to, and then crashes (SEGV_ACCERR) as soon
#   as Swift concurrency starts a thread.
# The code executed is the same, instruction for instruction. The native runs use the build as it is.
lib=$work/lib
mkdir -p "$lib"
objcopy --strip-debug "$binary" "$lib/switchyard-bench"
ldd "$binary" | awk '$3 ~ /^\// { print $3 }' | grep -v -E '^/(usr/)?lib' | while read -r library; do
    objcopy --strip-debug "$library" "$lib/$(basename "$library")"
done
[[ -f $lib/libdispatch.so ]] && python3 - "$lib/libdispatch.so" <<'PYTHON'
import struct, sys
path = sys.argv[1]
elf = bytearray(open(path, "rb").read())
offset, = struct.unpack_from("<Q", elf, 0x20)
size, count = struct.unpack_from("<HH", elf, 0x36)
for header in range(offset, offset + size * count, size):
    kind, flags = struct.unpack_from("<II", elf, header)
    if kind == 1 and flags & 1:  # PT_LOAD, executable: add PF_W
        struct.pack_into("<I", elf, header + 4, flags | 2)
open(path, "wb").write(elf)
PYTHON

# The scenario's command line for `count` measured calls, into the array `run`.
command_for() { run=("$binary" "$scenario" --contender "$contender" --warmup "$warmup" "$count_option" "$1" "${extra[@]}"); }

# Sum of the `totals:` (or `summary:`) lines of callgrind profiles, read from standard input's file names.
sum_totals() {
    local total=0 file value
    while read -r file; do
        [[ -n $file ]] || continue
        value=$(awk '/^(totals|summary):/ { print $2; exit }' "$file")
        total=$((total + ${value:-0}))
    done
    echo "$total"
}

# Counts the client's instructions of one run: prints "<client Ir> <server Ir>".
count() {
    local n=$1 dir=$work/callgrind-$1
    mkdir -p "$dir"
    command_for "$n"
    run[0]=$lib/switchyard-bench
    if ! SWIFT_DETERMINISTIC_HASHING=1 LD_LIBRARY_PATH=$lib valgrind --tool=callgrind --callgrind-out-file="$dir/out.%p" "${valgrind_extra[@]}" "${run[@]}" \
        >"$dir/stdout" 2>"$dir/stderr"; then
        echo "the run under valgrind failed (${run[*]}):" >&2
        grep -v '^==' "$dir/stderr" | tail -20 >&2
        exit 1
    fi
    grep -q '^contender ' "$dir/stdout" || { echo "no result line under valgrind:" >&2; cat "$dir/stdout" "$dir/stderr" >&2; exit 1; }
    if [[ $per_thread == yes ]]; then
        local server client
        server=$(grep -l 'LoopbackHTTPHandler' "$dir"/out.* || true)
        [[ $(echo "$server" | grep -c .) -eq 1 ]] || {
            echo "expected one server thread profile holding LoopbackHTTPHandler, found: ${server:-none}" >&2
            exit 1
        }
        client=$(ls "$dir"/out.* | grep -vxF "$server")
        echo "$(echo "$client" | sum_totals) $(echo "$server" | sum_totals)"
    else
        echo "$(ls "$dir"/out.* | sum_totals) 0"
    fi
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# One native run: prints "<harness ns/call> <user+sys seconds>".
native() {
    local out seconds TIMEFORMAT='%3U %3S'
    command_for "$1"
    { seconds=$( { time "${run[@]}" >"$work/native.out" 2>"$work/native.err"; } 2>&1); } || {
        echo "the native run failed:" >&2
        tail -20 "$work/native.err" >&2
        exit 1
    }
    out=$(awk '/^contender / { print $(NF - 1) }' "$work/native.out")
    echo "$out $(echo "$seconds" | awk '{ print $1 + $2 }')"
}

command_for N
echo "# ${run[*]} with N=$calls and $((2 * calls)), warm-up $warmup"
counted=$(count "$calls")
read -r client1 server1 <<<"$counted"
counted=$(count $((2 * calls)))
read -r client2 server2 <<<"$counted"
ir=$(awk -v a="$client1" -v b="$client2" -v n="$calls" 'BEGIN { printf "%.0f", (b - a) / n }')
echo "Ir(N)=$client1 Ir(2N)=$client2 -> $ir instructions/call"
if [[ $per_thread == yes ]]; then
    server_ir=$(awk -v a="$server1" -v b="$server2" -v n="$calls" 'BEGIN { printf "%.0f", (b - a) / n }')
    echo "server thread (left out): Ir(N)=$server1 Ir(2N)=$server2 -> $server_ir instructions/call"
fi

walls=() cpus=()
for _ in $(seq "$native_runs"); do
    measured=$(native $((native_scale * calls)))
    read -r _ cpu1 <<<"$measured"
    measured=$(native $((2 * native_scale * calls)))
    read -r wall2 cpu2 <<<"$measured"
    walls+=("$wall2")
    cpus+=("$(awk -v a="$cpu1" -v b="$cpu2" -v n="$((native_scale * calls))" 'BEGIN { printf "%.0f", (b - a) * 1e9 / n }')")
done
wall=$(printf '%s\n' "${walls[@]}" | median)
cpu=$(printf '%s\n' "${cpus[@]}" | median)
echo "native: wall $wall ns/call (harness, median of ${walls[*]}); cpu $cpu ns/call (whole process, differential, median of ${cpus[*]})"
echo "instructions $scenario $contender ir=$ir wall=$wall cpu=$cpu args=${extra[*]}"
