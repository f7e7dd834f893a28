"""Validates HTTP Archive files against HAR 1.2: the JSON Schema beside this script
(har-1.2.schema.json, checked with the independent `jsonschema` package) plus the rules of the
specification a schema cannot state.

Usage: python3 validate_har.py FILE...
Prints `valid HAR 1.2: FILE (N entries)` for each valid file; for an invalid one, every problem
with its JSON path, and exits 1. Exits 2 when it cannot run (no jsonschema, unreadable file)."""
import base64
import binascii
import json
import pathlib
import sys

SCHEMA_PATH = pathlib.Path(__file__).resolve().parent / "har-1.2.schema.json"


def semantic_problems(har):
    """The rules the schema cannot state, as (path, message) pairs."""
    problems = []
    for index, entry in enumerate(har.get("log", {}).get("entries", [])):
        where = f"$.log.entries[{index}]"
        timings = entry.get("timings", {})
        phases = ["blocked", "dns", "connect", "send", "wait", "receive"]
        total = sum(timings[name] for name in phases if isinstance(timings.get(name), (int, float)) and timings[name] >= 0)
        if isinstance(entry.get("time"), (int, float)) and abs(entry["time"] - total) > 0.01:
            problems.append((where + ".time", f"{entry['time']} is not the sum of the timings ({total})"))
        ssl = timings.get("ssl", -1)
        if isinstance(ssl, (int, float)) and ssl >= 0 and timings.get("connect", -1) < ssl:
            problems.append((where + ".timings.ssl", "ssl time must be included in connect"))
        bodies = [(".response.content", entry.get("response", {}).get("content", {}), "encoding")]
        bodies.append((".request.postData", entry.get("request", {}).get("postData", {}), "_encoding"))
        for place, body, key in bodies:
            if body.get(key) == "base64":
                try:
                    base64.b64decode(body.get("text", ""), validate=True)
                except binascii.Error as error:
                    problems.append((where + place + ".text", f"not base64: {error}"))
    return problems


def problems_in(har, validator):
    """Every schema error and semantic problem of one archive, as (path, message) pairs."""
    found = [(error.json_path, error.message) for error in sorted(validator.iter_errors(har), key=lambda e: e.json_path)]
    return found + semantic_problems(har)


def main(paths):
    try:
        import jsonschema
    except ImportError:
        print("validate_har.py needs the jsonschema package: pip install jsonschema", file=sys.stderr)
        return 2
    schema = json.loads(SCHEMA_PATH.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    status = 0
    for path in paths:
        try:
            har = json.loads(pathlib.Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            print(f"cannot read {path}: {error}", file=sys.stderr)
            return 2
        problems = problems_in(har, validator)
        if problems:
            status = 1
            print(f"invalid HAR 1.2: {path}")
            for where, message in problems:
                print(f"  {where}: {message}")
        else:
            print(f"valid HAR 1.2: {path} ({len(har['log']['entries'])} entries)")
    return status


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
