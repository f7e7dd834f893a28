"""Exactly once under kills: the outbox's harness.

Starts the order server (order_server.py, which honours Idempotency-Key) behind the fault proxy
(fault_proxy.py, refusing and dropping connections in bursts), then runs the client process
(`outbox-order-client`), which enqueues and drains ORDERS orders, killing it with SIGKILL at random
moments and starting it again, KILLS times at least. Then the proxy calms down and the client runs
to the end. Checks: every order applied exactly once, none missing, no dead letter, nothing
pending, and the store passes SQLite's integrity check. Prints the counts; exits 1 on a failure.

    python3 Tests/Outbox/kill_harness.py CLIENT_BINARY [--orders 1000] [--kills 50] [--time-limit 240]
"""

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fault_proxy import FaultProxy  # noqa: E402
from order_server import make_server  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("client")
    parser.add_argument("--orders", type=int, default=1000)
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--time-limit", type=float, default=240)
    parser.add_argument("--delay-ms", type=int, default=20, help="the server's time to apply an order")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--figures", type=int, default=0, help="then time this many plain sends, enqueues and drained calls")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    started = time.monotonic()

    work = tempfile.mkdtemp(prefix="outbox-harness-")
    server, store = make_server(os.path.join(work, "server.sqlite"), args.delay_ms)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    proxy = FaultProxy(server.server_address[1], seed=seed)
    proxy.start()
    store_path = os.path.join(work, "client", "outbox.sqlite")
    command = [args.client, store_path, f"http://127.0.0.1:{proxy.port}", str(args.orders)]
    print(f"seed {seed}; server :{server.server_address[1]}, proxy :{proxy.port}; store {store_path}", flush=True)

    kills = 0
    finished_runs = 0
    while kills < args.kills:
        if time.monotonic() - started > args.time_limit * 0.75:
            print(f"FAIL: only {kills} kills within the time limit", flush=True)
            return 1
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            process.wait(timeout=rng.uniform(0.05, 0.9))
            finished_runs += 1
            output = process.stdout.read().decode(errors="replace").strip()
            if process.returncode != 0:
                print(f"FAIL: the client exited {process.returncode}: {output}", flush=True)
                return 1
            # Everything was sent before the kill came: nothing left to kill in the middle of.
            break
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGKILL)
            process.wait()
            process.stdout.close()
            kills += 1

    proxy.calm()
    remaining = max(10.0, args.time_limit - (time.monotonic() - started))
    final = subprocess.run(command, capture_output=True, text=True, timeout=remaining)
    output = final.stdout.strip()
    print(output, flush=True)

    state = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{server.server_address[1]}/state").read())
    counts = state["orders"]
    expected = {f"order-{n}" for n in range(1, args.orders + 1)}
    missing = sorted(expected - counts.keys())
    duplicated = sorted(name for name, count in counts.items() if count > 1)
    unexpected = sorted(counts.keys() - expected)
    integrity = sqlite3.connect(store_path).execute("PRAGMA integrity_check").fetchone()[0]
    result = dict(part.split("=") for part in output.splitlines()[0].split()[1:]) if output.startswith("RESULT") else {}

    print(
        f"kills {kills}, runs finished before a kill {finished_runs}, server requests {state['requests']}, "
        f"replayed answers {state['replays']}, proxy connections {proxy.counts['connections']}, "
        f"refused {proxy.counts['refused']}, dropped after the request {proxy.counts['dropped']}",
        flush=True,
    )
    print(
        f"orders applied {sum(counts.values())} of {args.orders}: exactly once {len(expected & counts.keys()) - len(duplicated)}, "
        f"missing {len(missing)}, applied twice or more {len(duplicated)}, unexpected {len(unexpected)}; "
        f"client delivered {result.get('delivered')}, dead letters {result.get('dead')}, pending {result.get('pending')}; "
        f"store integrity {integrity}; {time.monotonic() - started:.1f} s",
        flush=True,
    )
    failures = []
    if final.returncode != 0:
        failures.append(f"the final run exited {final.returncode}: {final.stderr.strip()[-500:]}")
    if kills < args.kills:
        failures.append(f"{kills} kills, fewer than {args.kills}")
    if missing:
        failures.append(f"missing orders: {missing[:10]}")
    if duplicated:
        failures.append(f"orders applied more than once: {duplicated[:10]}")
    if unexpected:
        failures.append(f"unexpected orders: {unexpected[:10]}")
    if result.get("dead") != "0" or result.get("pending") != "0" or result.get("delivered") != str(args.orders):
        failures.append(f"the client's store does not hold {args.orders} delivered calls: {result}")
    if integrity != "ok":
        failures.append(f"the store's integrity check says {integrity}")
    for failure in failures:
        print(f"FAIL: {failure}", flush=True)
    if not failures:
        print("PASS: every order applied exactly once under kills", flush=True)
    if args.figures and not failures:
        # Wall time on a fresh store, straight to the server (no proxy, no faults, no apply delay).
        figures_server, _ = make_server(os.path.join(work, "figures-server.sqlite"), 0)
        threading.Thread(target=figures_server.serve_forever, daemon=True).start()
        figures_store = os.path.join(work, "figures", "outbox.sqlite")
        run = subprocess.run(
            [args.client, figures_store, f"http://127.0.0.1:{figures_server.server_address[1]}", str(args.figures), "--figures"],
            capture_output=True, text=True, timeout=300,
        )
        print(run.stdout.strip() or run.stderr.strip()[-500:], flush=True)
        figures_server.shutdown()
    server.shutdown()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
