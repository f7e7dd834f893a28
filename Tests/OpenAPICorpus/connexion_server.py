"""Serves an OpenAPI document with connexion (PyPI): its mock resolver answers every operation with the
document's examples, and strict validation refuses requests (and responses) the document does not allow.

Nobody on this project wrote the validator: the generated endpoints' requests must pass it as they are.

    python3 connexion_server.py DOCUMENT --port-file FILE [--newer-enum SCHEMA=VALUE] [--example PATH=JSON]

connexion 3 validates with OpenAPI 3.0 (and Swagger 2.0) only: a 3.1 document (Resend's) is served in the
3.0 dialect of the same schemas — `type: [T, "null"]` as `type: T, nullable: true`, `const: v` as
`enum: [v]`, without `webhooks` (which no client calls) — while the client is generated from the 3.1
document as published. A bearer security scheme accepts the token `re_corpus_check` only.

Listens on a free loopback port (a socket bound to 127.0.0.1:0, handed to uvicorn), written to FILE once
the app is built. `Prefer: code=404` on a request selects that documented response's example (as Prism
does), so that documented error bodies can be asked for. `--newer-enum Status=adopted` adds a value to a
schema's enum in the served copy only: the server is then newer than the generated client, which must
decode the value as unknown. `--example` sets the example of a response in the served copy
(`/pets get 200={"id": 1}`), so that answers are fixed rather than generated.
"""

import argparse
import json
import os
import socket
import sys

import connexion
import uvicorn
import yaml
from connexion.mock import MockResolver


class PreferResolver(MockResolver):
    """connexion's mock resolver, answering with the response `Prefer: code=N` names."""

    def mock_operation(self, operation, *args, **kwargs):
        prefer = connexion.request.headers.get("prefer", "")
        code = prefer[len("code="):] if prefer.startswith("code=") else None
        response, status = operation.example_response(status_code=code)
        if response is None:
            return "no example for this response", 501
        return response, status


def bearer_info(token):
    """The one bearer token the served API accepts (Resend's document requires a bearer token)."""
    return {"sub": "corpus-check"} if token == TOKEN else None


TOKEN = "re_corpus_check"


def as_openapi30(node):
    """The same schemas in OpenAPI 3.0's dialect (what this document's 3.1 constructs need)."""
    if isinstance(node, list):
        return [as_openapi30(item) for item in node]
    if not isinstance(node, dict):
        return node
    result = {key: as_openapi30(value) for key, value in node.items()}
    kinds = result.get("type")
    if isinstance(kinds, list):
        others = [kind for kind in kinds if kind != "null"]
        if len(others) == 1:
            result["type"] = others[0]
            if "null" in kinds:
                result["nullable"] = True
    if "const" in result:
        result["enum"] = [result.pop("const")]
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("document")
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--newer-enum", action="append", default=[])
    parser.add_argument("--example", action="append", default=[])
    arguments = parser.parse_args()
    with open(arguments.document, encoding="utf-8") as file:
        specification = yaml.safe_load(file)
    if str(specification.get("openapi", "")).startswith("3.1"):
        specification = as_openapi30(specification)
        specification["openapi"] = "3.0.3"
        specification.pop("webhooks", None)
    for scheme in specification.get("components", {}).get("securitySchemes", {}).values():
        if scheme.get("type") == "http" and scheme.get("scheme") == "bearer":
            scheme["x-bearerInfoFunc"] = "connexion_server.bearer_info"
    for item in arguments.newer_enum:
        name, value = item.split("=", 1)
        specification["components"]["schemas"][name]["enum"].append(value)
    for item in arguments.example:
        where, value = item.split("=", 1)
        path, method, status = where.rsplit(" ", 2)
        response = specification["paths"][path][method]["responses"][status]
        response["content"]["application/json"]["example"] = json.loads(value)
    app = connexion.AsyncApp(__name__)
    app.add_api(
        specification,
        resolver=PreferResolver(mock_all=True),
        strict_validation=True,
        validate_responses=True,
    )
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    temporary = arguments.port_file + ".tmp"
    with open(temporary, "w", encoding="utf-8") as file:
        file.write(str(port))
    os.replace(temporary, arguments.port_file)
    print(f"connexion: {arguments.document} on 127.0.0.1:{port}", file=sys.stderr, flush=True)
    uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[listener])


if __name__ == "__main__":
    main()
