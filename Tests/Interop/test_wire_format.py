"""Interoperability of Switchyard's encryption wire format with an independent implementation.

PyCA `cryptography` (OpenSSL underneath, but none of Switchyard's code) opens what Switchyard sealed
and seals what Switchyard opens, for every scheme in Docs/WireFormat.md, and checks that tampering is
detected by the authenticated schemes. Switchyard is driven through `switchyard-crypto-tool`
(Samples/CryptoTool); set SWITCHYARD_CRYPTO_TOOL to its path, or build it with
`swift build --product switchyard-crypto-tool` so that .build/debug holds it.
"""

import base64
import os
import struct
import subprocess
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import hashes, hmac, padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

ROOT = Path(__file__).resolve().parents[2]
TOOL = os.environ.get("SWITCHYARD_CRYPTO_TOOL", str(ROOT / ".build" / "debug" / "switchyard-crypto-tool"))


def tool(command, scheme, key, aad, data, iv=None):
    args = [TOOL, command, scheme, key.hex(), aad.hex(), data.hex()]
    if iv is not None:
        args.append(iv.hex())
    result = subprocess.run(args, capture_output=True, text=True, timeout=30)
    out = result.stdout.strip()
    if result.returncode != 0:
        return None, out
    return bytes.fromhex(out), None


def aad_for(direction, scheme, key_id, method, path):
    return "\n".join(["switchyard/1", direction, scheme, key_id, method, path]).encode()


def pkcs7_pad(data):
    padder = padding.PKCS7(128).padder()
    return padder.update(data) + padder.finalize()


def pkcs7_unpad(data):
    unpadder = padding.PKCS7(128).unpadder()
    return unpadder.update(data) + unpadder.finalize()


def cbc_subkeys(master):
    def derive(label):
        return HKDF(algorithm=hashes.SHA256(), length=32, salt=b"", info=label).derive(master)
    return (derive(b"switchyard/1 aes-256-cbc-hmac-sha256 enc"), derive(b"switchyard/1 aes-256-cbc-hmac-sha256 mac"))


def py_seal(scheme, key, aad, plaintext, iv=None):
    if scheme == "aes-256-gcm":
        nonce = os.urandom(12)
        return nonce + AESGCM(key).encrypt(nonce, plaintext, aad)
    if scheme == "aes-256-cbc-hmac-sha256":
        enc_key, mac_key = cbc_subkeys(key)
        iv = os.urandom(16)
        encryptor = Cipher(algorithms.AES(enc_key), modes.CBC(iv)).encryptor()
        ciphertext = encryptor.update(pkcs7_pad(plaintext)) + encryptor.finalize()
        mac = hmac.HMAC(mac_key, hashes.SHA256())
        mac.update(struct.pack(">Q", len(aad)) + aad + iv + ciphertext)
        return iv + ciphertext + mac.finalize()
    if scheme == "legacy-aes-ecb-base64":
        encryptor = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
        return base64.b64encode(encryptor.update(pkcs7_pad(plaintext)) + encryptor.finalize())
    if scheme in ("legacy-aes-cbc-fixed-iv-base64", "legacy-aes-cbc-key-iv-base64"):
        iv = iv if scheme == "legacy-aes-cbc-fixed-iv-base64" else key[:16]
        encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
        return base64.b64encode(encryptor.update(pkcs7_pad(plaintext)) + encryptor.finalize())
    raise AssertionError(scheme)


def py_open(scheme, key, aad, body, iv=None):
    if scheme == "aes-256-gcm":
        return AESGCM(key).decrypt(body[:12], body[12:], aad)
    if scheme == "aes-256-cbc-hmac-sha256":
        enc_key, mac_key = cbc_subkeys(key)
        iv, ciphertext, tag = body[:16], body[16:-32], body[-32:]
        mac = hmac.HMAC(mac_key, hashes.SHA256())
        mac.update(struct.pack(">Q", len(aad)) + aad + iv + ciphertext)
        mac.verify(tag)
        decryptor = Cipher(algorithms.AES(enc_key), modes.CBC(iv)).decryptor()
        return pkcs7_unpad(decryptor.update(ciphertext) + decryptor.finalize())
    raw = base64.b64decode(body, validate=True)
    if scheme == "legacy-aes-ecb-base64":
        decryptor = Cipher(algorithms.AES(key), modes.ECB()).decryptor()
    else:
        iv = iv if scheme == "legacy-aes-cbc-fixed-iv-base64" else key[:16]
        decryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
    return pkcs7_unpad(decryptor.update(raw) + decryptor.finalize())


SCHEMES = [
    ("aes-256-gcm", 32),
    ("aes-256-cbc-hmac-sha256", 32),
    ("legacy-aes-ecb-base64", 16),
    ("legacy-aes-ecb-base64", 32),
    ("legacy-aes-cbc-fixed-iv-base64", 24),
    ("legacy-aes-cbc-key-iv-base64", 32),
]
SIZES = [0, 1, 15, 16, 17, 1000]


@pytest.mark.parametrize("scheme,key_size", SCHEMES)
@pytest.mark.parametrize("size", SIZES)
def test_python_opens_what_switchyard_sealed(scheme, key_size, size):
    key, iv = os.urandom(key_size), os.urandom(16)
    aad = aad_for("request", scheme, "k1", "POST", "/vault/items")
    plaintext = os.urandom(size)
    body, error = tool("seal", scheme, key, aad, plaintext, iv)
    assert error is None, error
    assert py_open(scheme, key, aad, body, iv) == plaintext


@pytest.mark.parametrize("scheme,key_size", SCHEMES)
@pytest.mark.parametrize("size", SIZES)
def test_switchyard_opens_what_python_sealed(scheme, key_size, size):
    key, iv = os.urandom(key_size), os.urandom(16)
    aad = aad_for("response", scheme, "k1", "GET", "/vault/%E4%B8%AD")
    plaintext = os.urandom(size)
    opened, error = tool("open", scheme, key, aad, py_seal(scheme, key, aad, plaintext, iv), iv)
    assert error is None, error
    assert opened == plaintext


@pytest.mark.parametrize("scheme", ["aes-256-gcm", "aes-256-cbc-hmac-sha256"])
def test_switchyard_detects_tampering_by_python(scheme):
    key = os.urandom(32)
    aad = aad_for("response", scheme, "k1", "GET", "/vault")
    body = py_seal(scheme, key, aad, b'{"secret":"s"}')
    for index in range(len(body)):
        tampered = bytearray(body)
        tampered[index] ^= 0x01
        opened, error = tool("open", scheme, key, aad, bytes(tampered))
        assert opened is None and error == "error authenticationFailed", (index, error)
    wrong_aad = aad_for("request", scheme, "k1", "GET", "/vault")
    assert tool("open", scheme, key, wrong_aad, body) == (None, "error authenticationFailed")
    assert tool("open", scheme, key, aad, body[:-1])[0] is None


def test_python_detects_tampering_by_switchyard():
    key = os.urandom(32)
    aad = aad_for("request", "aes-256-gcm", "k1", "PUT", "/x")
    body, _ = tool("seal", "aes-256-gcm", key, aad, b"hello")
    tampered = bytearray(body)
    tampered[-1] ^= 0x80
    with pytest.raises(Exception):
        AESGCM(key).decrypt(bytes(tampered[:12]), bytes(tampered[12:]), aad)


def test_bad_base64_is_a_typed_error():
    key = os.urandom(16)
    assert tool("open", "legacy-aes-ecb-base64", key, b"", b"not base64!") == (None, "error invalidInput")
