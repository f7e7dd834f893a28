#!/usr/bin/env python3
"""An independent reference backend for Switchyard's encryption framings, written from
Docs/WireFormat.md with the standard library's HTTP server and PyCA `cryptography` — none of
Switchyard's code.

Every module answers POST /<framing>/<scheme>/echo by opening the request, and answering with the
envelope {"code":0,"msg":"ok","data":{"echo":<the request's JSON>,"query":"<the query>","gone":null}}
sealed in the module's framing:

| framing    | request                                   | response                                   |
| ---------- | ----------------------------------------- | ------------------------------------------ |
| headers    | Switchyard's headers, wire format 2       | Switchyard's headers, wire format 2        |
| whole      | the whole body is the ciphertext          | the whole body is the ciphertext           |
| form       | form field data=<base64>, others beside   | envelope whose "data" is <base64>          |
| json       | {"data":"<base64>"}                       | the whole body is the ciphertext           |
| envelope   | {"payload":"<base64>"}                    | envelope whose "result.data" is <base64>   |

Schemes: aes-256-gcm, aes-256-cbc-hmac-sha256, legacy-aes-ecb-base64, legacy-aes-cbc-key-iv-base64.
Keys: KEY (32 bytes of 0x5a) with key id "ref-1". `?tamper=1` flips one byte of the sealed answer.

Prints {"port": N} and serves until its standard input closes.
"""

import base64
import json
import os
import struct
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.hazmat.primitives import hashes, hmac, padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

KEY = bytes([0x5A]) * 32
KEY_ID = "ref-1"
BINARY = {"aes-256-gcm", "aes-256-cbc-hmac-sha256"}


def pad(data):
    padder = padding.PKCS7(128).padder()
    return padder.update(data) + padder.finalize()


def unpad(data):
    unpadder = padding.PKCS7(128).unpadder()
    return unpadder.update(data) + unpadder.finalize()


def subkeys(master):
    def derive(label):
        return HKDF(algorithm=hashes.SHA256(), length=32, salt=b"", info=label).derive(master)
    return derive(b"switchyard/1 aes-256-cbc-hmac-sha256 enc"), derive(b"switchyard/1 aes-256-cbc-hmac-sha256 mac")


def seal(scheme, plaintext, aad=b""):
    if scheme == "aes-256-gcm":
        nonce = os.urandom(12)
        return nonce + AESGCM(KEY).encrypt(nonce, plaintext, aad)
    if scheme == "aes-256-cbc-hmac-sha256":
        enc, mac_key = subkeys(KEY)
        iv = os.urandom(16)
        encryptor = Cipher(algorithms.AES(enc), modes.CBC(iv)).encryptor()
        ciphertext = encryptor.update(pad(plaintext)) + encryptor.finalize()
        mac = hmac.HMAC(mac_key, hashes.SHA256())
        mac.update(struct.pack(">Q", len(aad)) + aad + iv + ciphertext)
        return iv + ciphertext + mac.finalize()
    mode = modes.ECB() if scheme == "legacy-aes-ecb-base64" else modes.CBC(KEY[:16])
    encryptor = Cipher(algorithms.AES(KEY), mode).encryptor()
    return base64.b64encode(encryptor.update(pad(plaintext)) + encryptor.finalize())


def open_(scheme, body, aad=b""):
    if scheme == "aes-256-gcm":
        return AESGCM(KEY).decrypt(body[:12], body[12:], aad)
    if scheme == "aes-256-cbc-hmac-sha256":
        enc, mac_key = subkeys(KEY)
        iv, ciphertext, tag = body[:16], body[16:-32], body[-32:]
        mac = hmac.HMAC(mac_key, hashes.SHA256())
        mac.update(struct.pack(">Q", len(aad)) + aad + iv + ciphertext)
        mac.verify(tag)
        decryptor = Cipher(algorithms.AES(enc), modes.CBC(iv)).decryptor()
        return unpad(decryptor.update(ciphertext) + decryptor.finalize())
    mode = modes.ECB() if scheme == "legacy-aes-ecb-base64" else modes.CBC(KEY[:16])
    decryptor = Cipher(algorithms.AES(KEY), mode).decryptor()
    return unpad(decryptor.update(base64.b64decode(body, validate=True)) + decryptor.finalize())


def canonical_query(query):
    """Docs/WireFormat.md: decode, re-encode with the unreserved set, sort by the re-encoded bytes."""
    pairs = []
    for item in query.split("&"):
        if not item:
            continue
        name, _, value = item.partition("=")
        encode = lambda text: urllib.parse.quote(urllib.parse.unquote_to_bytes(text), safe="-._~")
        pairs.append((encode(name), encode(value)))
    pairs.sort(key=lambda pair: (pair[0].encode(), pair[1].encode()))
    return "&".join(f"{name}={value}" for name, value in pairs)


def aad_v2(direction, scheme, method, path, query, nonce):
    return "\n".join(["switchyard/2", direction, scheme, KEY_ID, method, path, canonical_query(query), nonce]).encode()


def as_text(sealed, scheme):
    return base64.b64encode(sealed).decode() if scheme in BINARY else sealed.decode()


def from_text(text, scheme):
    return base64.b64decode(text, validate=True) if scheme in BINARY else text.encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        target = urllib.parse.urlsplit(self.path)
        parts = target.path.strip("/").split("/")
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if len(parts) != 3 or parts[2] != "echo":
            return self.answer(404, b'{"code":404,"msg":"no such module","data":null}')
        framing, scheme = parts[0], parts[1]
        tamper = "tamper=1" in target.query.split("&")
        try:
            plaintext, extra = self.opened(framing, scheme, body, target)
        except Exception as error:  # noqa: BLE001 - any failure to open is the client's
            return self.answer(400, json.dumps({"code": 400, "msg": f"cannot open: {type(error).__name__}", "data": None}).encode())
        echo = {"echo": json.loads(plaintext), "query": target.query, "gone": None}
        echo.update(extra)
        envelope = {"code": 0, "msg": "ok", "data": echo, "trace": None}
        self.sealed_answer(framing, scheme, envelope, target, tamper)

    def opened(self, framing, scheme, body, target):
        if framing == "headers":
            nonce = self.headers["X-Switchyard-Request-Nonce"]
            assert self.headers["X-Switchyard-Encryption"] == f"{scheme}; kid={KEY_ID}"
            aad = aad_v2("request", scheme, "POST", target.path, target.query, nonce)
            return open_(scheme, body, aad), {}
        if framing == "whole":
            return open_(scheme, body), {}
        if framing == "form":
            fields = urllib.parse.parse_qs(body.decode(), keep_blank_values=True)
            others = {name: values[0] for name, values in fields.items() if name != "data"}
            return open_(scheme, from_text(fields["data"][0], scheme)), {"fields": others}
        member = "data" if framing == "json" else "payload"
        return open_(scheme, from_text(json.loads(body)[member], scheme)), {}

    def sealed_answer(self, framing, scheme, envelope, target, tamper):
        def maybe_tamper(sealed):
            if not tamper:
                return sealed
            flipped = bytearray(sealed)
            flipped[len(flipped) // 2] ^= 0x01
            return bytes(flipped)

        plain = json.dumps(envelope).encode()
        if framing == "headers":
            aad = aad_v2("response", scheme, "POST", target.path, target.query, self.headers["X-Switchyard-Request-Nonce"])
            sealed = maybe_tamper(seal(scheme, plain, aad))
            content_type = "application/octet-stream" if scheme in BINARY else "text/plain; charset=us-ascii"
            return self.answer(200, sealed, [
                ("X-Switchyard-Encryption", f"{scheme}; kid={KEY_ID}"),
                ("X-Switchyard-Content-Type", "application/json"),
                ("Content-Type", content_type),
            ])
        if framing in ("whole", "json"):
            return self.answer(200, maybe_tamper(seal(scheme, plain)), [("Content-Type", "application/octet-stream")])
        data = json.dumps(envelope["data"]).encode()
        sealed = maybe_tamper(seal(scheme, data))
        if framing == "form":
            outer = {"code": 0, "msg": "ok", "data": as_text(sealed, scheme), "trace": None}
        else:
            outer = {"code": 0, "msg": "ok", "result": {"data": as_text(sealed, scheme), "page": None}}
        return self.answer(200, json.dumps(outer).encode(), [("Content-Type", "application/json")])


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(json.dumps({"port": server.server_address[1]}), flush=True)
    try:
        sys.stdin.read()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
