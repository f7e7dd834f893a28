"""The HAR 1.2 schema and validator the Swift tests check exported archives with
(Tests/HAR/validate_har.py) accept a well-formed archive and reject the mistakes an exporter could
make, so a green export test means something."""
import copy
import importlib.util
import json
import pathlib

import jsonschema
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SPEC = importlib.util.spec_from_file_location("validate_har", ROOT / "Tests" / "HAR" / "validate_har.py")
validate_har = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(validate_har)
SCHEMA = json.loads(validate_har.SCHEMA_PATH.read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

VALID = {
    "log": {
        "version": "1.2",
        "creator": {"name": "Switchyard", "version": "0.2.0"},
        "entries": [
            {
                "startedDateTime": "2026-11-24T07:30:00.123Z",
                "time": 12.5,
                "request": {
                    "method": "POST",
                    "url": "https://api.example.com/orders?lang=en&token=<redacted>",
                    "httpVersion": "",
                    "cookies": [{"name": "sid", "value": "<redacted>"}],
                    "headers": [{"name": "Authorization", "value": "<redacted>"}],
                    "queryString": [{"name": "lang", "value": "en"}, {"name": "token", "value": "<redacted>"}],
                    "postData": {"mimeType": "application/json", "text": "{\"sku\":\"A-1\"}"},
                    "headersSize": -1,
                    "bodySize": 13,
                },
                "response": {
                    "status": 201,
                    "statusText": "Created",
                    "httpVersion": "",
                    "cookies": [{"name": "sid", "value": "<redacted>", "path": "/", "httpOnly": True, "expires": "2026-12-01T00:00:00.000Z"}],
                    "headers": [{"name": "Content-Type", "value": "application/octet-stream"}],
                    "content": {"size": 4, "mimeType": "application/octet-stream", "text": "AAECAw==", "encoding": "base64"},
                    "redirectURL": "",
                    "headersSize": -1,
                    "bodySize": 4,
                    "_source": "network",
                },
                "cache": {},
                "timings": {"blocked": -1, "dns": -1, "connect": -1, "send": 0, "wait": 12.5, "receive": 0, "ssl": -1},
                "_service": "shop",
                "_requestID": "7",
            },
            {
                "startedDateTime": "2026-11-24T07:30:01+01:00",
                "time": 3,
                "request": {
                    "method": "GET",
                    "url": "http://127.0.0.1:8080/x",
                    "httpVersion": "",
                    "cookies": [],
                    "headers": [],
                    "queryString": [],
                    "headersSize": -1,
                    "bodySize": 0,
                },
                "response": {
                    "status": 0,
                    "statusText": "",
                    "httpVersion": "",
                    "cookies": [],
                    "headers": [],
                    "content": {"size": 0, "mimeType": "x-unknown"},
                    "redirectURL": "",
                    "headersSize": -1,
                    "bodySize": -1,
                    "_error": "transport: connection refused",
                },
                "cache": {},
                "timings": {"send": 0, "wait": 3, "receive": 0},
            },
        ],
    }
}


def problems(har):
    return validate_har.problems_in(har, VALIDATOR)


def test_the_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_a_well_formed_archive_is_valid():
    assert problems(VALID) == []


def _set(path, value):
    def change(har):
        target = har
        for key in path[:-1]:
            target = target[key]
        if value is KeyError:
            del target[path[-1]]
        else:
            target[path[-1]] = value

    return change


FIRST = ("log", "entries", 0)
MISTAKES = {
    "wrong version": _set(("log", "version"), "1.1"),
    "no creator": _set(("log", "creator"), KeyError),
    "entry without timings": _set(FIRST + ("timings",), KeyError),
    "entry without cache": _set(FIRST + ("cache",), KeyError),
    "date without zone": _set(FIRST + ("startedDateTime",), "2026-11-24T07:30:00.123"),
    "time not the sum of timings": _set(FIRST + ("time",), 99),
    "negative wait": _set(FIRST + ("timings", "wait"), -1),
    "relative url": _set(FIRST + ("request", "url"), "/orders"),
    "request without queryString": _set(FIRST + ("request", "queryString"), KeyError),
    "header without value": _set(FIRST + ("request", "headers"), [{"name": "Accept"}]),
    "postData without mimeType": _set(FIRST + ("request", "postData"), {"text": "x"}),
    "postData with text and params": _set(FIRST + ("request", "postData"), {"mimeType": "a/b", "text": "x", "params": []}),
    "status as text": _set(FIRST + ("response", "status"), "201"),
    "content without size": _set(FIRST + ("response", "content"), {"mimeType": "text/plain"}),
    "unknown encoding": _set(FIRST + ("response", "content", "encoding"), "gzip"),
    "bad base64": _set(FIRST + ("response", "content", "text"), "not base64!"),
    "bad request base64": _set(FIRST + ("request", "postData"), {"mimeType": "application/octet-stream", "text": "!!", "_encoding": "base64"}),
    "response without redirectURL": _set(FIRST + ("response", "redirectURL"), KeyError),
    "custom field without underscore": _set(FIRST + ("service",), "shop"),
    "cookie expires not ISO 8601": _set(FIRST + ("response", "cookies"), [{"name": "a", "value": "b", "expires": "Tue, 01 Dec 2026"}]),
}


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_the_validator_rejects_mistakes(name):
    har = copy.deepcopy(VALID)
    MISTAKES[name](har)
    assert problems(har) != [], name


def test_the_command_line_exit_status(tmp_path):
    good = tmp_path / "good.har"
    good.write_text(json.dumps(VALID))
    bad = tmp_path / "bad.har"
    broken = copy.deepcopy(VALID)
    del broken["log"]["entries"][0]["timings"]
    bad.write_text(json.dumps(broken))
    assert validate_har.main([str(good)]) == 0
    assert validate_har.main([str(good), str(bad)]) == 1
