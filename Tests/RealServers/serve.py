#!/usr/bin/env python3
"""Real third-party servers for Switchyard's real-server test suite, on free 127.0.0.1 ports.

Starts nginx (Debian's, with a generated configuration), httpbin under gunicorn, a Server-Sent Events
feed (sse_app.py: sse-starlette under uvicorn) that drops its connections and resumes from
Last-Event-ID, and a "breaking" TCP proxy in front of nginx that closes every connection after a
fixed number of response bytes.
Prints one JSON line with their URLs and the test files' digests, then waits until its standard
input closes (the test process ended, or closed the pipe) and stops every server by pid, removing
its temporary directory. When nginx, gunicorn/httpbin or uvicorn/sse-starlette is missing it prints {"missing": [...]} and
exits, so the suite can skip with a clear message.

Usage: python3 Tests/RealServers/serve.py
"""

import asyncio
import gzip
import hashlib
import json
import re
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

BLOB_SIZE = 50 * 1024 * 1024
BREAK_AFTER = 20 * 1024 * 1024
# A gzip bomb larger than the transports' 64 MiB decompression limit, served encoded whatever the
# request accepts (as a misconfigured server would), for the size refusal of a download.
BOMB_SIZE = 80 * 1024 * 1024


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status < 500:
                    return
        except Exception:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer within {seconds} s")


def make_files(www):
    os.makedirs(os.path.join(www, "static"))
    os.makedirs(os.path.join(www, "lm"))
    os.makedirs(os.path.join(www, "bomb"))
    with open(os.path.join(www, "bomb", "zeros.bin.gz"), "wb") as f:
        f.write(gzip.compress(bytes(BOMB_SIZE), 9, mtime=0))
    # A gzip header followed by bytes that do not inflate: a body that is not what its coding says.
    with open(os.path.join(www, "bomb", "corrupt.txt.gz"), "wb") as f:
        f.write(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03" + bytes(range(256)) * 16)
    blob = os.urandom(BLOB_SIZE)
    with open(os.path.join(www, "blob.bin"), "wb") as f:
        f.write(blob)
    # A compressible asset with its gzip_static twin, as a build pipeline would deploy it.
    lines = [f"export const item{i} = {{ id: {i}, name: 'item number {i}', tags: ['a', 'b', 'c'] }};\n" for i in range(40000)]
    asset = "".join(lines).encode()
    with open(os.path.join(www, "static", "app.js"), "wb") as f:
        f.write(asset)
    with open(os.path.join(www, "static", "app.js.gz"), "wb") as f:
        f.write(gzip.compress(asset, 9, mtime=0))
    with open(os.path.join(www, "page.json"), "wb") as f:
        f.write(b'{"page":1,"items":["a","b"]}')
    with open(os.path.join(www, "lm", "page.json"), "wb") as f:
        f.write(b'{"page":1,"items":["a","b"]}')
    return {
        "blobSHA256": hashlib.sha256(blob).hexdigest(),
        "blobSize": len(blob),
        "assetSHA256": hashlib.sha256(asset).hexdigest(),
        "assetSize": len(asset),
        "assetGzipSize": os.path.getsize(os.path.join(www, "static", "app.js.gz")),
    }


def nginx_conf(root, www, port):
    user = "user root;\n" if os.geteuid() == 0 else ""
    return f"""{user}worker_processes 1;
daemon off;
pid {root}/nginx.pid;
error_log {root}/nginx-error.log;
events {{ worker_connections 256; }}
http {{
    access_log off;
    sendfile on;
    client_body_temp_path {root}/body;
    proxy_temp_path {root}/proxy;
    fastcgi_temp_path {root}/fastcgi;
    uwsgi_temp_path {root}/uwsgi;
    scgi_temp_path {root}/scgi;
    types {{ application/octet-stream bin; application/javascript js; application/json json; }}
    default_type application/octet-stream;
    server {{
        listen 127.0.0.1:{port};
        root {www};
        location /static/ {{ gzip_static on; }}
        location /lm/ {{ etag off; }}
        location /bomb/ {{ gzip_static always; }}
        location /slow/ {{ alias {www}/; limit_rate 1m; }}
    }}
}}
"""


CUT = re.compile(rb"^([A-Z]+) /cut/(\d+)/")


class BreakingProxy:
    """Forwards to nginx and closes each connection after BREAK_AFTER response bytes — or after N
    bytes for a request whose path starts with /cut/N/ (the prefix is removed before nginx sees it)."""

    def __init__(self, upstream_port):
        self.upstream_port = upstream_port
        self.port = free_port()
        self.loop = asyncio.new_event_loop()

    async def pipe(self, reader, writer, limit, limits=None):
        sent = 0
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                if limits is not None:
                    match = CUT.match(data)
                    if match:
                        limits[0] = int(match.group(2))
                        data = match.group(1) + b" /" + data[match.end():]
                if limit is not None and limit[0] is not None and sent + len(data) >= limit[0]:
                    writer.write(data[: limit[0] - sent])
                    await writer.drain()
                    break
                writer.write(data)
                sent += len(data)
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def handle(self, client_reader, client_writer):
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        except OSError:
            client_writer.close()
            return
        limits = [BREAK_AFTER]
        upward = asyncio.ensure_future(self.pipe(client_reader, upstream_writer, None, limits))
        await self.pipe(upstream_reader, client_writer, limits)
        upward.cancel()
        upstream_writer.close()

    def run(self):
        asyncio.set_event_loop(self.loop)
        server = self.loop.run_until_complete(asyncio.start_server(self.handle, "127.0.0.1", self.port))
        self.loop.run_forever()
        server.close()


def main():
    missing = [tool for tool in ("nginx", "gunicorn") if shutil.which(tool) is None and not os.path.exists(f"/usr/sbin/{tool}")]
    try:
        import httpbin  # noqa: F401
    except ImportError:
        missing.append("httpbin")
    for module, name in (("uvicorn", "uvicorn"), ("sse_starlette", "sse-starlette")):
        try:
            __import__(module)
        except ImportError:
            missing.append(name)
    if missing:
        print(json.dumps({"missing": missing}), flush=True)
        return
    root = tempfile.mkdtemp(prefix="switchyard-real-servers-")
    www = os.path.join(root, "www")
    children = []
    try:
        digests = make_files(www)
        nginx_port = free_port()
        with open(os.path.join(root, "nginx.conf"), "w") as f:
            f.write(nginx_conf(root, www, nginx_port))
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        children.append(subprocess.Popen([nginx, "-p", root, "-c", os.path.join(root, "nginx.conf"), "-e", os.path.join(root, "nginx-error.log")]))
        httpbin_port = free_port()
        children.append(
            subprocess.Popen(
                ["gunicorn", "-b", f"127.0.0.1:{httpbin_port}", "-k", "gthread", "--threads", "16", "--keep-alive", "120", "--log-level", "warning", "httpbin:app"],
                stdout=subprocess.DEVNULL,
                stderr=open(os.path.join(root, "gunicorn.log"), "w"),
            )
        )
        sse_port = free_port()
        children.append(
            subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "--app-dir", os.path.dirname(os.path.abspath(__file__)), "sse_app:app",
                 "--host", "127.0.0.1", "--port", str(sse_port), "--log-level", "critical"],
                stdout=subprocess.DEVNULL,
                stderr=open(os.path.join(root, "uvicorn.log"), "w"),
            )
        )
        proxy = BreakingProxy(nginx_port)
        threading.Thread(target=proxy.run, daemon=True).start()
        wait_for(f"http://127.0.0.1:{nginx_port}/page.json")
        wait_for(f"http://127.0.0.1:{httpbin_port}/get")
        wait_for(f"http://127.0.0.1:{sse_port}/health")
        info = {
            "nginx": f"http://127.0.0.1:{nginx_port}",
            "httpbin": f"http://127.0.0.1:{httpbin_port}",
            "breaking": f"http://127.0.0.1:{proxy.port}",
            "sse": f"http://127.0.0.1:{sse_port}",
            "breakAfter": BREAK_AFTER,
            "pids": [child.pid for child in children],
        }
        info.update(digests)
        print(json.dumps(info), flush=True)
        signal.signal(signal.SIGTERM, lambda *_: sys.stdin.close())
        try:
            sys.stdin.read()  # until the test process closes the pipe or ends
        except (ValueError, OSError):
            pass
    finally:
        for child in children:
            child.terminate()
        for child in children:
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
