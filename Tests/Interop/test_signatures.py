"""Signatures of Switchyard's signing wire format checked both ways against an independent
implementation (Python's hashlib/hmac and urllib), including the published WeChat Pay v2 examples."""

import hashlib
import hmac as pyhmac
import os
import subprocess
import urllib.parse

import pytest

from test_wire_format import TOOL


def run(*args):
    result = subprocess.run([TOOL, *args], capture_output=True, text=True, timeout=30)
    return result.returncode, result.stdout.strip()


def canonical_query(query):
    pairs = []
    for item in query.split("&"):
        if not item:
            continue
        name, _, value = item.partition("=")
        pairs.append((reencode(name), reencode(value)))
    pairs.sort(key=lambda pair: (pair[0].encode(), pair[1].encode()))
    return "&".join(f"{name}={value}" for name, value in pairs)


def reencode(text):
    return urllib.parse.quote(urllib.parse.unquote_to_bytes(text), safe="-._~")


def canonical_request(method, target, timestamp, nonce, key_id, body):
    path, _, query = target.partition("?")
    return "\n".join([
        "switchyard/1 request", method, path, canonical_query(query), str(timestamp), nonce, key_id, hashlib.sha256(body).hexdigest(),
    ])


def canonical_response(status, timestamp, nonce, key_id, body):
    return "\n".join(["switchyard/1 response", str(status), str(timestamp), nonce, key_id, hashlib.sha256(body).hexdigest()])


TARGETS = [
    "/v1/items",
    "/v1/items?b=2&a=x%20y&a=1&c",
    "/v1/%E4%B8%AD/items?q=%e4%b8%ad+x&empty=&z=%2F",
    "/search?k=a%3Db&&k=a",
]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("method,body", [("GET", b""), ("POST", b'{"name":"Ada"}'), ("PUT", os.urandom(300))])
def test_python_verifies_switchyard_request_signatures(target, method, body):
    key, nonce = os.urandom(32), os.urandom(16).hex()
    code, signature = run("sign-request", key.hex(), "k1", method, target, "1700000000", nonce, body.hex())
    assert code == 0, signature
    canonical = canonical_request(method, target, 1700000000, nonce, "k1", body)
    assert signature == pyhmac.new(key, canonical.encode(), hashlib.sha256).hexdigest()


@pytest.mark.parametrize("status,body", [(200, b'{"ok":true}'), (201, b""), (404, os.urandom(100))])
def test_switchyard_verifies_python_response_signatures(status, body):
    key, nonce = os.urandom(32), os.urandom(16).hex()
    signature = pyhmac.new(key, canonical_response(status, 1700000123, nonce, "k2", body).encode(), hashlib.sha256).hexdigest()
    assert run("verify-response", key.hex(), "k2", str(status), "1700000123", nonce, body.hex(), signature) == (0, "ok")
    assert run("verify-response", key.hex(), "k2", str(status), "1700000124", nonce, body.hex(), signature) == (1, "error signatureMismatch")
    assert run("verify-response", key.hex(), "k2", str(status), "1700000123", nonce, (body + b"x").hex(), signature)[0] == 1


WECHAT_PARAMS = "appid=wxd930ea5d5a258f4f&mch_id=10000100&device_info=1000&body=test&nonce_str=ibuaiVcKdpRxkhJA"
WECHAT_KEY = "192006250b4c09247ec02edce69f6a2d"


def wechat_string(params, key):
    pairs = [item.split("=", 1) for item in params.split("&")]
    kept = sorted((name, value) for name, value in pairs if value and name != "sign")
    return "&".join(f"{name}={value}" for name, value in kept) + "&key=" + key


def test_published_wechat_pay_v2_examples():
    secret = WECHAT_KEY.encode().hex()
    assert run("sign-legacy", "md5", secret, WECHAT_PARAMS) == (0, "9A0A8659F005D6984697E2CA0A9CF3B7")
    assert run("sign-legacy", "hmac-sha256", secret, WECHAT_PARAMS) == (0, "6A9AE1657590FD6257D693A078E1C3E4BB6BA4DC30B23E0EE2496E54170DACD6")


@pytest.mark.parametrize("params", [WECHAT_PARAMS + "&sign=OLD&empty=", "b=2&a=1&c=中文&d=x y"])
def test_python_verifies_switchyard_legacy_signatures(params):
    string = wechat_string(params, WECHAT_KEY)
    assert run("sign-legacy", "md5", WECHAT_KEY.encode().hex(), params) == (0, hashlib.md5(string.encode()).hexdigest().upper())
    expected = pyhmac.new(WECHAT_KEY.encode(), string.encode(), hashlib.sha256).hexdigest().upper()
    assert run("sign-legacy", "hmac-sha256", WECHAT_KEY.encode().hex(), params) == (0, expected)
