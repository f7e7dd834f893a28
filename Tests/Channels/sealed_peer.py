#!/usr/bin/env python3
"""A sealed-channel peer written from Docs/WireFormat.md ("Channel messages") alone, with PyCA
`cryptography` and the `websockets` package: none of Switchyard's code.

Usage: python3 Tests/Channels/sealed_peer.py <key id> <key hex>
Serves on a free 127.0.0.1 port, prints {"port": N} and serves until standard input closes.

Every client message is opened (sequence numbers checked) and answered with a sealed
"echo:<plaintext>" of the same kind. A text command (after opening) makes the peer misbehave once:
  tamper     its next answer has one ciphertext byte flipped
  replay     it sends one answer twice, byte for byte
  reorder    it sends answers number n+1 and n, in that order
  direction  its answer is sealed as if the client had sent it
A client message that does not open or is out of order closes the connection with 1008.
"""

import asyncio
import json
import os
import sys
from urllib.parse import urlparse

from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from websockets.asyncio.server import serve

KEYS = {sys.argv[1]: bytes.fromhex(sys.argv[2])}


class Refused(Exception):
    pass


def aad(direction, scheme, kid, path, nonce, seq, kind):
    return "\n".join(["switchyard-channel/1", direction, scheme, kid, path, nonce, str(seq), kind]).encode()


def seal(key, scheme, kid, path, nonce, direction, seq, kind, plaintext):
    gcm_nonce = os.urandom(12)
    sealed = gcm_nonce + AESGCM(key).encrypt(gcm_nonce, plaintext, aad(direction, scheme, kid, path, nonce, seq, kind))
    return bytes([1, 1 if kind == "text" else 2]) + seq.to_bytes(8, "big") + sealed


def open_message(key, scheme, kid, path, nonce, expected, data):
    if not isinstance(data, bytes) or len(data) < 10 + 12 + 16 or data[0] != 1 or data[1] not in (1, 2):
        raise Refused("not a sealed message")
    kind = "text" if data[1] == 1 else "binary"
    seq = int.from_bytes(data[2:10], "big")
    sealed = data[10:]
    try:
        plaintext = AESGCM(key).decrypt(sealed[:12], sealed[12:], aad("client", scheme, kid, path, nonce, seq, kind))
    except Exception:
        raise Refused("does not open")
    if seq != expected:
        raise Refused("out of order")
    return kind, plaintext


async def handler(ws):
    headers = ws.request.headers
    scheme, _, rest = headers.get("X-Switchyard-Encryption", "").partition(";")
    scheme = scheme.strip()
    kid = rest.strip().removeprefix("kid=")
    nonce = headers.get("X-Switchyard-Request-Nonce", "")
    path = urlparse(ws.request.path).path
    if scheme != "aes-256-gcm" or kid not in KEYS or len(nonce) != 32:
        await ws.close(1008, "not sealed")
        return
    key = KEYS[kid]
    received = 0
    sent = 0
    mode = None

    def answer(kind, plaintext, direction="server", seq=None):
        return seal(key, scheme, kid, path, nonce, direction, sent if seq is None else seq, kind, plaintext)

    async for data in ws:
        try:
            kind, plaintext = open_message(key, scheme, kid, path, nonce, received, data)
        except Refused as refused:
            await ws.close(1008, str(refused))
            return
        received += 1
        if kind == "text" and plaintext.decode() in ("tamper", "replay", "reorder", "direction"):
            mode = plaintext.decode()
            continue
        reply = b"echo:" + plaintext
        if mode == "tamper":
            frame = bytearray(answer(kind, reply))
            frame[-20] ^= 0x01
            await ws.send(bytes(frame))
        elif mode == "replay":
            frame = answer(kind, reply)
            await ws.send(frame)
            await ws.send(frame)
        elif mode == "reorder":
            await ws.send(answer(kind, reply + b"#2", seq=sent + 1))
            await ws.send(answer(kind, reply, seq=sent))
        elif mode == "direction":
            await ws.send(answer(kind, reply, direction="client"))
        else:
            await ws.send(answer(kind, reply))
        sent += 1 if mode is None else 2
        mode = None


async def main():
    async with serve(handler, "127.0.0.1", 0, ping_interval=None, max_size=None) as server:
        print(json.dumps({"port": server.sockets[0].getsockname()[1]}), flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


if __name__ == "__main__":
    asyncio.run(main())
