"""A small order server outside the library, for the outbox's tests.

POST /orders applies an order ({"order": NAME}) and honours the IETF httpapi draft's
`Idempotency-Key`: the first request with a key applies the order and stores the answer in the
server's own SQLite file; every later request with that key gets the stored answer back (with
`Idempotent-Replayed: true`) and applies nothing. A request without a key is refused (400).

GET /state answers what the server applied: each order's count, the tokens calls carried, and the
counts of requests and replays.

Run standalone with `python3 order_server.py DB_PATH [DELAY_MS]`: it prints `PORT n` once listening.
"""

import json
import socket
import sqlite3
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class OrderStore:
    """The server's state, in SQLite, changed under one lock so that a key is applied once."""

    def __init__(self, path):
        self.lock = threading.Lock()
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, status INTEGER, body TEXT)")
        self.db.execute("CREATE TABLE IF NOT EXISTS applied (seq INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, token TEXT, key TEXT)")
        self.requests = 0
        self.replays = 0

    def apply(self, key, name, token):
        """The answer for `key`: the stored one, or a new one after applying the order once."""
        with self.lock:
            self.requests += 1
            row = self.db.execute("SELECT status, body FROM answers WHERE key = ?", (key,)).fetchone()
            if row is not None:
                self.replays += 1
                return row[0], row[1], True
            self.db.execute("BEGIN IMMEDIATE")
            cursor = self.db.execute("INSERT INTO applied (name, token, key) VALUES (?, ?, ?)", (name, token, key))
            body = json.dumps({"order": name, "id": cursor.lastrowid})
            self.db.execute("INSERT INTO answers (key, status, body) VALUES (?, 201, ?)", (key, body))
            self.db.execute("COMMIT")
            return 201, body, False

    def state(self):
        with self.lock:
            counts = {}
            tokens = {}
            for name, token in self.db.execute("SELECT name, token FROM applied ORDER BY seq"):
                counts[name] = counts.get(name, 0) + 1
                tokens.setdefault(name, token)
            return {"orders": counts, "tokens": tokens, "requests": self.requests, "replays": self.replays}


def make_server(db_path, delay_ms=0, port=0):
    store = OrderStore(db_path)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def setup(self):
            super().setup()
            # One answer is written in two pieces (head, body): without this, Nagle's algorithm and the
            # client's delayed ACK hold the second piece for 40 ms.
            self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def log_message(self, *args):
            pass

        def answer(self, status, body, headers=()):
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            if self.path == "/state":
                self.answer(200, json.dumps(store.state()))
            else:
                self.answer(404, "{}")

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if self.path != "/orders":
                self.answer(404, "{}")
                return
            key = self.headers.get("Idempotency-Key")
            if not key:
                self.answer(400, json.dumps({"error": "Idempotency-Key is required"}))
                return
            try:
                name = json.loads(raw)["order"]
            except (ValueError, KeyError, TypeError):
                self.answer(400, json.dumps({"error": "the body is not an order"}))
                return
            if delay_ms:
                time.sleep(delay_ms / 1000)
            auth = self.headers.get("Authorization", "")
            status, body, replayed = store.apply(key, name, auth)
            self.answer(status, body, [("Idempotent-Replayed", "true")] if replayed else [])

    class Server(ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request, client_address):
            # A client that went away (killed, or cut off by the fault proxy) is expected here.
            if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
                super().handle_error(request, client_address)

    server = Server(("127.0.0.1", port), Handler)
    return server, store


def supervised(port):
    """For the Swift tests (PythonSupervisor): prints {"port": n} when ready and serves, with a store
    in a temporary directory, until standard input closes."""
    import json as _json
    import os
    import tempfile
    import threading as _threading

    directory = tempfile.mkdtemp(prefix="order-server-")
    server, _ = make_server(os.path.join(directory, "server.sqlite"), 0, port)
    _threading.Thread(target=server.serve_forever, daemon=True).start()
    print(_json.dumps({"port": server.server_address[1]}), flush=True)
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--supervised":
        supervised(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
        sys.exit(0)
    server, _ = make_server(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever()
