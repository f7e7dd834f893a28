"""A fast Server-Sent Events feed for `switchyard-bench stream`: the stream's source, out of the
measured process, so neither its CPU nor its memory is counted with the client's.

    python3 event_feed.py --port-file FILE

`GET /events?bytes=N&size=S` answers `200 text/event-stream` with `Content-Length` and N bytes (rounded
down to whole events) of events of S bytes each (64...4096, default 128):
`id: <n>\\nevent: tick\\ndata: {"symbol":"ACME","seq":<n>,"pad":"…"}\\n\\n`. The events are made once
and sent in 1 MiB writes, so the feed is faster than any client that parses them. The port it
listens on (127.0.0.1, chosen by the system) is written to FILE.
"""

import argparse
import socket
import threading
from urllib.parse import parse_qs, urlsplit

BLOCK = 1 << 20


def event(number, size):
    head = f'id: {number}\nevent: tick\ndata: {{"symbol":"ACME","seq":{number},"pad":"'
    tail = '"}\n\n'
    return (head + "x" * max(0, size - len(head) - len(tail)) + tail).encode()


def block(size):
    """About 1 MiB of whole events, each exactly `size` bytes."""
    events, number, total = [], 1000000, 0
    while total + size <= BLOCK:
        data = event(number, size)[:size]
        data = data[: size - 2] + b"\n\n" if len(data) == size else data
        events.append(data)
        total += len(data)
        number += 1
    return b"".join(events)


def serve(connection):
    with connection:
        request = b""
        while b"\r\n\r\n" not in request:
            data = connection.recv(65536)
            if not data:
                return
            request += data
            if len(request) > 65536:
                return
        target = request.split(b" ", 2)[1].decode("latin-1")
        query = parse_qs(urlsplit(target).query)
        size = min(max(int(query.get("size", ["128"])[0]), 64), 4096)
        chunk = block(size)
        total = int(query.get("bytes", ["0"])[0]) // size * size
        connection.sendall(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
            + f"Content-Length: {total}\r\nConnection: close\r\n\r\n".encode()
        )
        sent = 0
        view = memoryview(chunk)
        try:
            while sent < total:
                part = view[: min(len(chunk), total - sent)]
                connection.sendall(part)
                sent += len(part)
        except OSError:
            pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-file", required=True)
    arguments = parser.parse_args()
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    with open(arguments.port_file, "w") as file:
        file.write(str(listener.getsockname()[1]))
    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve, args=(connection,), daemon=True).start()


if __name__ == "__main__":
    main()
