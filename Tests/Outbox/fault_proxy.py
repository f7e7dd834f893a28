"""A TCP fault proxy for the outbox's tests: forwards 127.0.0.1:PORT to an upstream port, and in
bursts either refuses connections (accepts and resets them at once) or drops them after the request
went upstream but before the answer came back — the case where the server applied a call whose
answer the client never saw.

Run standalone with `python3 fault_proxy.py UPSTREAM_PORT`: it prints `PORT n` once listening.
"""

import random
import socket
import struct
import sys
import threading
import time


class FaultProxy:
    MODES = ("pass", "refuse", "drop")

    def __init__(self, upstream_port, seed=None, weights=(0.5, 0.25, 0.25), burst=(0.2, 0.8)):
        self.upstream_port = upstream_port
        self.random = random.Random(seed)
        self.weights = weights
        self.burst = burst
        self.mode = "pass"
        self.counts = {"connections": 0, "refused": 0, "dropped": 0}
        self.lock = threading.Lock()
        self.running = True
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(128)
        self.port = self.listener.getsockname()[1]
        self.faults = True

    def start(self):
        threading.Thread(target=self._accept, daemon=True).start()
        threading.Thread(target=self._schedule, daemon=True).start()

    def calm(self):
        """Stops the faults: every connection passes from now on."""
        self.faults = False
        self.mode = "pass"

    def _schedule(self):
        while self.running:
            if self.faults:
                self.mode = self.random.choices(self.MODES, self.weights)[0]
            time.sleep(self.random.uniform(*self.burst))

    def _count(self, name):
        with self.lock:
            self.counts[name] += 1

    def _accept(self):
        while self.running:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self._count("connections")
            if self.mode == "refuse":
                self._count("refused")
                client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                client.close()
                continue
            threading.Thread(target=self._relay, args=(client,), daemon=True).start()

    def _relay(self, client):
        try:
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
        except OSError:
            client.close()
            return
        done = threading.Event()

        def pump(source, target, answers):
            try:
                while not done.is_set():
                    data = source.recv(65536)
                    if not data:
                        break
                    if answers and self.mode == "drop":
                        # The request reached the server; its answer never reaches the client.
                        self._count("dropped")
                        break
                    target.sendall(data)
            except OSError:
                pass
            done.set()
            for sock in (client, upstream):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

        threading.Thread(target=pump, args=(client, upstream, False), daemon=True).start()
        pump(upstream, client, True)
        client.close()
        upstream.close()


if __name__ == "__main__":
    proxy = FaultProxy(int(sys.argv[1]))
    proxy.start()
    print(f"PORT {proxy.port}", flush=True)
    while True:
        time.sleep(3600)
