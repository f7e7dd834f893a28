#!/usr/bin/env python3
"""A WebSocket server for Switchyard's channel tests, on the Python `websockets` package (not ours).

Serves on a free 127.0.0.1 port (over TLS with `--tls CERT KEY`, PEM files), prints one JSON line {"port": N} when ready, and serves until its
standard input closes (the test process ended), then exits. Paths (query `id` keys per-test state):

  /echo          sends {"headers": {...}} (the upgrade request's header fields), then echoes each message
  /fragmented    answers each text message with the same text in 4 fragments
  /large?size=N  sends one binary message of N bytes, then echoes
  /close?code=C  on any message, closes with code C and reason "bye"
  /drop?id=I     sends "hello <connection number>"; answers "subscribe X" with "subscribed X <n>";
                 on "drop" aborts the TCP connection without a close frame
  /silent?id=I   like /drop, but its first connection never answers pings
  /auth?id=I     refuses the upgrade with 401 unless Authorization is "Bearer fresh"; then echoes
  /vanish        closes the TCP connection on the upgrade request, without answering
  /flood?n=N     sends N binary messages of 1 KiB as fast as the socket takes them
  /hold?id=I     echoes; records the close code the client sends and when
  /report?id=I   sends the JSON record kept for id: connections, refusals, close code and time
"""

import asyncio
import json
import ssl
import sys
import time
from http import HTTPStatus
from urllib.parse import urlparse, parse_qs

import websockets
from websockets.asyncio.server import serve
from websockets.frames import Opcode
from websockets.protocol import Protocol

RECORDS = {}

_send_frame = Protocol.send_frame


def send_frame(self, frame):
    if getattr(self, "silent", False) and frame.opcode == Opcode.PONG:
        return
    _send_frame(self, frame)


Protocol.send_frame = send_frame


def record(key):
    return RECORDS.setdefault(key, {"connections": 0, "refused": 0, "close_code": None, "closed_at": None})


def query(request):
    parsed = urlparse(request.path)
    return parsed.path, {k: v[0] for k, v in parse_qs(parsed.query).items()}


def process_request(connection, request):
    path, args = query(request)
    if path == "/vanish":
        connection.transport.abort()
        return connection.respond(HTTPStatus.INTERNAL_SERVER_ERROR, "never sent\n")
    if path == "/auth":
        if request.headers.get("Authorization") != "Bearer fresh":
            record(args.get("id", ""))["refused"] += 1
            return connection.respond(HTTPStatus.UNAUTHORIZED, "token expired\n")
    return None


async def handler(ws):
    path, args = query(ws.request)
    key = args.get("id", "")
    rec = record(key)
    if path != "/report":
        rec["connections"] += 1
    n = rec["connections"]
    try:
        if path == "/echo":
            await ws.send(json.dumps({"headers": {k.lower(): v for k, v in ws.request.headers.raw_items()}}))
            async for message in ws:
                await ws.send(message)
        elif path == "/fragmented":
            async for message in ws:
                quarter = max(1, len(message) // 4)
                parts = [message[i:i + quarter] for i in range(0, len(message), quarter)]
                await ws.send(parts)
        elif path == "/large":
            size = int(args.get("size", "1048576"))
            await ws.send((bytes(range(251)) * (size // 251 + 1))[:size])
            async for message in ws:
                await ws.send(message)
        elif path == "/close":
            code = int(args.get("code", "4001"))
            async for _ in ws:
                await ws.close(code, "bye")
        elif path in ("/drop", "/silent"):
            if path == "/silent" and n == 1:
                ws.protocol.silent = True
            await ws.send(f"hello {n}")
            async for message in ws:
                if message.startswith("subscribe "):
                    await ws.send(f"subscribed {message[10:]} {n}")
                elif message == "drop":
                    ws.transport.abort()
                    return
        elif path == "/auth":
            async for message in ws:
                await ws.send(message)
        elif path == "/flood":
            count = int(args.get("n", "1000"))
            payload = b"x" * 1024
            for _ in range(count):
                await ws.send(payload)
            await ws.close(1000, "done")
        elif path == "/hold":
            async for message in ws:
                await ws.send(message)
        elif path == "/report":
            await ws.send(json.dumps(RECORDS.get(key, {})))
            await ws.wait_closed()
    except websockets.ConnectionClosed:
        pass
    finally:
        if path == "/hold":
            rcvd = ws.protocol.close_rcvd
            rec["close_code"] = rcvd.code if rcvd is not None else None
            rec["closed_at"] = time.time()


async def main():
    tls = None
    if len(sys.argv) == 4 and sys.argv[1] == "--tls":
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(sys.argv[2], sys.argv[3])
    async with serve(handler, "127.0.0.1", 0, process_request=process_request, ping_interval=None,
                     max_size=None, max_queue=4, ssl=tls) as server:
        port = server.sockets[0].getsockname()[1]
        print(json.dumps({"port": port}), flush=True)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.read)


if __name__ == "__main__":
    asyncio.run(main())
