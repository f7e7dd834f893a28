"""The test vectors and the worked exchange of Docs/WireFormat.md, checked so that the document cannot
drift from its own rules or from Switchyard.

Each vector block is recomputed from its inputs with PyCA `cryptography`, `hashlib` and `hmac` by the
document's rules alone (none of Switchyard's code), and then given to Switchyard through
`switchyard-crypto-tool` (see test_wire_format.py): it must build the same associated data and
signatures, open every sealed body, refuse it under the other direction's AAD or with a flipped byte,
and seal the deterministic legacy schemes to the same text.
"""

import base64
import hashlib
import hmac as pyhmac
import json
import re
import struct
import urllib.parse
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import hashes, hmac
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from test_signatures import canonical_query, run
from test_wire_format import cbc_subkeys, pkcs7_pad, tool

DOC = Path(__file__).resolve().parents[2] / "Docs" / "WireFormat.md"
HEX_FIELDS = {"key", "gcm nonce", "iv", "enc key", "mac key", "ciphertext", "tag", "mac", "body", "sealed bytes"}
AUTHENTICATED = {"aes-256-gcm", "aes-256-cbc-hmac-sha256"}


def fenced_blocks(text, language):
    return [match.group(1) for match in re.finditer(rf"^```{language}\n(.*?)^```$", text, re.S | re.M)]


def parse_vector(block):
    """`name: value` lines; `  | text` lines continue a multi-line text value, other indented lines a
    hex value. Returns the fields in order (a name may repeat)."""
    fields = []
    for line in block.splitlines():
        if line.startswith((" ", "\t")):
            name, value = fields[-1]
            stripped = line.strip()
            if stripped.startswith("|"):
                part = stripped[2:] if stripped.startswith("| ") else stripped[1:]
                fields[-1] = (name, part if value is None else value + "\n" + part)
            else:
                fields[-1] = (name, (value or "") + stripped)
            continue
        name, _, value = line.partition(":")
        fields.append((name.strip(), value.strip() or None))
    return [(name, "" if value is None else value) for name, value in fields]


def load_vectors():
    vectors = {}
    for block in fenced_blocks(DOC.read_text(encoding="utf-8"), "text"):
        fields = parse_vector(block)
        if fields and fields[0][0] == "vector":
            name = fields[0][1]
            assert name not in vectors, f"two vectors named {name}"
            vectors[name] = fields[1:]
    return vectors


VECTORS = load_vectors()


def field(vector, name):
    values = [value for key, value in VECTORS[vector] if key == name]
    assert len(values) == 1, f"{vector}: expected one '{name}', found {len(values)}"
    value = values[0]
    return bytes.fromhex(value) if name in HEX_FIELDS else value


def has(vector, name):
    return any(key == name for key, _ in VECTORS[vector])


def named(pattern):
    return sorted(name for name in VECTORS if re.fullmatch(pattern, name))


def doc_aad(vector):
    """The AAD from the document's rules: wire format 2 with a request nonce, else version 1; none in a
    legacy framing."""
    scheme, version, direction = vector.split("/")
    direction = direction.split("-")[0]  # response-without-query
    path, _, query = field(vector, "target").partition("?")
    lines = [f"switchyard/{version[1]}", direction, scheme, field(vector, "key id"), field(vector, "method"), path]
    if version == "v2":
        lines += [canonical_query(query), field(vector, "request nonce")]
    return "\n".join(lines)


def seal_cbc_hmac(key, iv, plaintext, aad):
    enc_key, mac_key = cbc_subkeys(key)
    encryptor = Cipher(algorithms.AES(enc_key), modes.CBC(iv)).encryptor()
    ciphertext = encryptor.update(pkcs7_pad(plaintext)) + encryptor.finalize()
    mac = hmac.HMAC(mac_key, hashes.SHA256())
    mac.update(struct.pack(">Q", len(aad)) + aad + iv + ciphertext)
    return enc_key, mac_key, ciphertext, mac.finalize()


def check_sealed(vector, scheme, aad):
    """Recomputes a sealed body of an authenticated scheme and returns its bytes."""
    key, plaintext = field(vector, "key"), field(vector, "plaintext").encode()
    if scheme == "aes-256-gcm":
        nonce = field(vector, "gcm nonce")
        sealed = AESGCM(key).encrypt(nonce, plaintext, aad)
        assert sealed[:-16].hex() == field(vector, "ciphertext").hex()
        assert sealed[-16:].hex() == field(vector, "tag").hex()
        return nonce + sealed
    iv = field(vector, "iv")
    enc_key, mac_key, ciphertext, mac = seal_cbc_hmac(key, iv, plaintext, aad)
    assert (enc_key.hex(), mac_key.hex()) == (field(vector, "enc key").hex(), field(vector, "mac key").hex())
    assert (ciphertext.hex(), mac.hex()) == (field(vector, "ciphertext").hex(), field(vector, "mac").hex())
    return iv + ciphertext + mac


def test_the_document_has_a_vector_for_every_scheme_and_version():
    for scheme in AUTHENTICATED:
        for variant in ("v2/request", "v1/response", "legacy-framing"):
            assert any(name.startswith(f"{scheme}/{variant}") for name in VECTORS), f"{scheme}/{variant}"
    for scheme in ("legacy-aes-ecb-base64", "legacy-aes-cbc-fixed-iv-base64", "legacy-aes-cbc-key-iv-base64"):
        assert f"{scheme}/any-framing" in VECTORS
    for name in ("canonical-query", "signature/request", "signature/response", "signature/response-204"):
        assert name in VECTORS
    assert named(r"sorted-parameter/.*") and len(fenced_blocks(DOC.read_text(encoding="utf-8"), "http")) == 2


def test_the_document_points_at_no_repository_file():
    text = DOC.read_text(encoding="utf-8")
    assert not re.search(r"Tests/|Sources/|Samples/|\.py\b", text), "a server team has only the document"


@pytest.mark.parametrize("vector", named(r"aes-256-[^/]+/v[12]/.*"))
def test_sealed_body_vectors(vector):
    scheme, _, direction = vector.split("/")
    direction = direction.split("-")[0]
    aad = doc_aad(vector)
    assert field(vector, "aad") == aad
    body = check_sealed(vector, scheme, aad.encode())
    assert body.hex() == field(vector, "body").hex()

    # Switchyard builds the same AAD, opens the body, and refuses it elsewhere.
    nonce = [field(vector, "request nonce")] if has(vector, "request nonce") else []
    code, printed = run("aad", direction, scheme, field(vector, "key id"), field(vector, "method"), field(vector, "target"), *nonce)
    assert (code, printed) == (0, aad.encode().hex())
    assert tool("open", scheme, field(vector, "key"), aad.encode(), body) == (field(vector, "plaintext").encode(), None)
    other = aad.replace(f"\n{direction}\n", "\nrequest\n" if direction == "response" else "\nresponse\n", 1)
    assert tool("open", scheme, field(vector, "key"), other.encode(), body) == (None, "error authenticationFailed")
    flipped = bytearray(body)
    flipped[len(body) // 2] ^= 0x01
    assert tool("open", scheme, field(vector, "key"), aad.encode(), bytes(flipped)) == (None, "error authenticationFailed")


@pytest.mark.parametrize("vector", named(r"aes-256-[^/]+/legacy-framing"))
def test_legacy_framing_vectors_of_authenticated_schemes(vector):
    scheme = vector.split("/")[0]
    assert field(vector, "aad") == ""
    sealed = check_sealed(vector, scheme, b"")
    assert sealed.hex() == field(vector, "sealed bytes").hex()
    text = base64.b64encode(sealed).decode()
    assert text == field(vector, "sealed text")
    if has(vector, "form body"):
        assert field(vector, "form body") == "data=" + urllib.parse.quote(text, safe="-._~")
    if has(vector, "json body"):
        assert json.loads(field(vector, "json body")) == {"data": text}
        assert field(vector, "json body") == json.dumps({"data": text}, separators=(",", ":"))
    assert tool("open", scheme, field(vector, "key"), b"", sealed) == (field(vector, "plaintext").encode(), None)


def legacy_seal(scheme, key, iv, plaintext):
    mode = {
        "legacy-aes-ecb-base64": lambda: modes.ECB(),
        "legacy-aes-cbc-fixed-iv-base64": lambda: modes.CBC(iv),
        "legacy-aes-cbc-key-iv-base64": lambda: modes.CBC(key[:16]),
    }[scheme]()
    encryptor = Cipher(algorithms.AES(key), mode).encryptor()
    return base64.b64encode(encryptor.update(pkcs7_pad(plaintext)) + encryptor.finalize()).decode()


@pytest.mark.parametrize("vector", named(r"legacy-[^/]+/any-framing"))
def test_legacy_scheme_vectors(vector):
    scheme = vector.split("/")[0]
    key, plaintext = field(vector, "key"), field(vector, "plaintext").encode()
    iv = field(vector, "iv") if has(vector, "iv") else None
    text = field(vector, "sealed text")
    assert legacy_seal(scheme, key, iv, plaintext) == text
    assert tool("seal", scheme, key, b"", plaintext, iv) == (text.encode(), None)
    assert tool("open", scheme, key, b"", text.encode(), iv) == (plaintext, None)
    if has(vector, "form body"):
        assert field(vector, "form body") == "data=" + urllib.parse.quote(text, safe="-._~") + "&app_id=demo"
    if has(vector, "answer"):
        answer = field(vector, "answer").encode()
        assert legacy_seal(scheme, key, iv, answer) == field(vector, "answer text")
        assert tool("open", scheme, key, b"", field(vector, "answer text").encode(), iv) == (answer, None)


def test_the_framing_example_matches_its_vector():
    text = DOC.read_text(encoding="utf-8")
    vector = "legacy-aes-ecb-base64/any-framing"
    assert f"\n{field(vector, 'form body')}\n" in text
    envelope = {"code": 0, "msg": "ok", "data": field(vector, "answer text"), "trace": None}
    assert f"\n{json.dumps(envelope, separators=(',', ':'))}\n" in text


def test_canonical_query_vector():
    pairs = VECTORS["canonical-query"]
    assert [name for name, _ in pairs] == ["query", "canonical"] * (len(pairs) // 2) and len(pairs) >= 8
    key = bytes(range(32))
    for (_, query), (_, canonical) in zip(pairs[0::2], pairs[1::2]):
        assert canonical_query(query) == canonical, query
        # Switchyard's canonical query, seen through the request signature it makes.
        text = "\n".join(["switchyard/1 request", "GET", "/q", canonical, "1", "n", "k", hashlib.sha256(b"").hexdigest()])
        expected = pyhmac.new(key, text.encode(), hashlib.sha256)
        for target in ["/q?" + query] + (["/q"] if not query else []):  # a bare `?` is no query too
            assert run("sign-request", key.hex(), "k", "GET", target, "1", "n", "") == (0, expected.hexdigest()), target


def test_request_signature_vector():
    vector = "signature/request"
    path, _, query = field(vector, "target").partition("?")
    body = field(vector, "body")
    canonical = "\n".join([
        "switchyard/1 request", field(vector, "method"), path, canonical_query(query), field(vector, "timestamp"),
        field(vector, "nonce"), field(vector, "key id"), hashlib.sha256(body).hexdigest(),
    ])
    assert canonical == field(vector, "canonical")
    signature = pyhmac.new(field(vector, "key"), canonical.encode(), hashlib.sha256).hexdigest()
    assert signature == field(vector, "signature")
    assert run(
        "sign-request", field(vector, "key").hex(), field(vector, "key id"), field(vector, "method"), field(vector, "target"),
        field(vector, "timestamp"), field(vector, "nonce"), body.hex(),
    ) == (0, signature)


@pytest.mark.parametrize("vector", named(r"signature/response.*"))
def test_response_signature_vectors(vector):
    body = field(vector, "body")
    canonical = "\n".join([
        "switchyard/1 response", field(vector, "status"), field(vector, "timestamp"), field(vector, "nonce"), field(vector, "key id"),
        hashlib.sha256(body).hexdigest(),
    ])
    assert canonical == field(vector, "canonical")
    signature = pyhmac.new(field(vector, "key"), canonical.encode(), hashlib.sha256).hexdigest()
    assert signature == field(vector, "signature")
    arguments = [field(vector, "key").hex(), field(vector, "key id"), field(vector, "status"), field(vector, "timestamp")]
    assert run("verify-response", *arguments, field(vector, "nonce"), body.hex(), signature) == (0, "ok")
    # Over another request's nonce (the request nonce of the encryption stage, say) it does not verify.
    assert run("verify-response", *arguments, "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf", body.hex(), signature) == (1, "error signatureMismatch")


@pytest.mark.parametrize("vector", named(r"sorted-parameter/.*"))
def test_sorted_parameter_vectors(vector):
    secret, parameters = field(vector, "secret"), field(vector, "parameters")
    pairs = [item.split("=", 1) for item in parameters.split("&")]
    kept = sorted((name, urllib.parse.unquote(value)) for name, value in pairs if value and name != "sign")
    string = "&".join(f"{name}={value}" for name, value in kept) + "&key=" + secret
    assert string == field(vector, "string")
    algorithm = vector.split("/")[1]
    if algorithm == "md5":
        sign = hashlib.md5(string.encode()).hexdigest().upper()
    else:
        sign = pyhmac.new(secret.encode(), string.encode(), hashlib.sha256).hexdigest().upper()
    assert sign == field(vector, "sign")
    assert run("sign-legacy", algorithm, secret.encode().hex(), parameters) == (0, sign)


def parse_http(block):
    head, _, body = block.partition("\n\n")
    lines = head.splitlines()
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(": ")
        assert name not in headers
        headers[name] = value
    return lines[0], headers, bytes.fromhex("".join(body.split()))


def test_worked_exchange_is_the_vectors_on_the_wire():
    request, response = (parse_http(block) for block in fenced_blocks(DOC.read_text(encoding="utf-8"), "http"))
    sealed, signed = "aes-256-gcm/v2/request", "signature/request"
    line, headers, body = request
    assert line == f"POST {field(sealed, 'target')} HTTP/1.1"
    assert field(sealed, "target") == field(signed, "target") and field(sealed, "method") == field(signed, "method") == "POST"
    assert body == field(sealed, "body") == field(signed, "body")
    assert headers == {
        "Content-Type": "application/octet-stream",
        "Content-Length": str(len(body)),
        "X-Switchyard-Content-Type": "application/json",
        "X-Switchyard-Encryption": f"aes-256-gcm; kid={field(sealed, 'key id')}",
        "X-Switchyard-Request-Nonce": field(sealed, "request nonce"),
        "X-Switchyard-Key-Id": field(signed, "key id"),
        "X-Switchyard-Timestamp": field(signed, "timestamp"),
        "X-Switchyard-Nonce": field(signed, "nonce"),
        "X-Switchyard-Signature": field(signed, "signature"),
    }
    assert headers["X-Switchyard-Nonce"] != headers["X-Switchyard-Request-Nonce"]

    sealed, signed = "aes-256-gcm/v2/response", "signature/response"
    line, headers, body = response
    assert line == f"HTTP/1.1 {field(signed, 'status')} OK"
    for name in ("key", "key id", "method", "target", "request nonce"):
        assert field(sealed, name) == field("aes-256-gcm/v2/request", name)
    assert field(signed, "nonce") == field("signature/request", "nonce") and field(signed, "key") == field("signature/request", "key")
    assert body == field(sealed, "body") == field(signed, "body")
    assert headers == {
        "Content-Type": "application/octet-stream",
        "Content-Length": str(len(body)),
        "X-Switchyard-Content-Type": "application/json",
        "X-Switchyard-Encryption": f"aes-256-gcm; kid={field(sealed, 'key id')}",
        "X-Switchyard-Key-Id": field(signed, "key id"),
        "X-Switchyard-Timestamp": field(signed, "timestamp"),
        "X-Switchyard-Signature": field(signed, "signature"),
    }
