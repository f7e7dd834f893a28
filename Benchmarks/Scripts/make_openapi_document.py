#!/usr/bin/env python3
"""Writes a large synthetic OpenAPI document for the generation benchmark.

The document is what a big backend's description looks like: resources with list, create, read,
replace, update and delete operations plus actions, downloads and uploads; path, query (including
exploded arrays) and header parameters; JSON request bodies, a few application/x-www-form-urlencoded,
multipart/form-data and application/octet-stream ones; several documented responses per operation
(success, 400, 404, 409, 422, default) with JSON error bodies. Its component schemas mix objects with
required and optional members, nested objects, $refs to other schemas, arrays, string enums, int32 and
int64 integers, float and double numbers, date-time and date strings, nullable members,
additionalProperties dictionaries, allOf compositions and oneOf unions with a discriminator.

It stays inside what both swift-openapi-generator 1.14 and switchyard-gen's OpenAPI input handle:
no recursion (a schema refers only to schemas written before it), no anyOf, no parameter or response
$refs, no object-valued query parameters, no Swift keywords as names. The same arguments always give
the same bytes (random.Random seeded with --seed).

Usage:
  make_openapi_document.py [--operations N] [--schemas M] [--seed S] [--openapi 3.0.3|3.1.0] OUTPUT
OUTPUT ending in .json gives JSON, anything else YAML. Python 3 standard library only.
"""

import argparse
import json
import random
import re
import sys

NOUNS = [
    "Account", "Address", "Invoice", "Order", "Shipment", "Product", "Customer", "Payment", "Refund",
    "Subscription", "Plan", "Coupon", "Warehouse", "Supplier", "Contract", "Ticket", "Comment",
    "Attachment", "Report", "Campaign", "Segment", "Device", "Session", "Webhook", "Project", "Task",
    "Milestone", "Team", "Member", "Role", "Policy", "Budget", "Expense", "Vehicle", "Route", "Booking",
    "Venue", "Event", "Course", "Lesson", "Article", "Review", "Claim", "Quote", "Lead", "Deal",
    "Store", "Catalog", "Price", "Tax", "Ledger", "Transfer", "Card", "Wallet", "Merchant", "Dispute",
]
PROPERTY_WORDS = [
    "name", "title", "label", "summary", "note", "reference", "code", "slug", "email", "phone",
    "country", "city", "region", "postalCode", "currency", "locale", "timezone", "channel", "source",
    "owner", "assignee", "category", "color", "sku", "barcode", "vendor", "language", "website",
]
ENUM_WORDS = [
    "active", "pending", "archived", "suspended", "draft", "published", "cancelled", "completed",
    "failed", "processing", "approved", "rejected", "expired", "scheduled", "paused", "refunded",
]
PRIMITIVES = ["string", "int32", "int64", "double", "float", "boolean", "date-time", "date", "uuid"]


def primitive_schema(kind):
    if kind == "string":
        return {"type": "string"}
    if kind in ("int32", "int64"):
        return {"type": "integer", "format": kind}
    if kind in ("double", "float"):
        return {"type": "number", "format": kind}
    if kind == "boolean":
        return {"type": "boolean"}
    return {"type": "string", "format": kind}


def ref(name):
    return {"$ref": "#/components/schemas/" + name}


class DocumentBuilder:
    def __init__(self, operations, schemas, seed, version):
        self.operation_count = operations
        self.schema_count = schemas
        self.rng = random.Random(seed)
        self.version = version
        self.schemas = {}
        self.enums = []  # names of string enum schemas
        self.objects = []  # names of plain object schemas (may be allOf bases and $ref targets)
        self.resources = []  # names of schemas that operations return (objects, allOf, oneOf)

    # -- schemas ------------------------------------------------------------------------------------

    def nullable(self, schema):
        """A primitive schema that also admits null: `nullable` in 3.0, a type list in 3.1."""
        schema = dict(schema)
        if self.version.startswith("3.0"):
            schema["nullable"] = True
        else:
            schema["type"] = [schema["type"], "null"]
        return schema

    def property_schema(self, depth):
        rng = self.rng
        roll = rng.random()
        if roll < 0.40:
            return primitive_schema(rng.choice(PRIMITIVES))
        if roll < 0.48:
            return self.nullable(primitive_schema(rng.choice(["string", "int64", "double", "date-time"])))
        if roll < 0.56 and self.enums:
            return ref(rng.choice(self.enums))
        if roll < 0.68 and self.objects:
            return ref(rng.choice(self.objects))
        if roll < 0.76:
            items = ref(rng.choice(self.objects)) if self.objects and rng.random() < 0.6 else primitive_schema("string")
            return {"type": "array", "items": items}
        if roll < 0.82:
            values = ref(rng.choice(self.objects)) if self.objects and rng.random() < 0.3 else primitive_schema("string")
            return {"type": "object", "additionalProperties": values}
        if roll < 0.88 and depth == 0:
            return self.object_schema(rng.randint(2, 4), depth + 1)
        if roll < 0.94:
            enum = sorted(rng.sample(ENUM_WORDS, rng.randint(2, 4)))
            return {"type": "string", "enum": enum}
        return {"type": "array", "items": primitive_schema(rng.choice(["int64", "string", "date-time"]))}

    def object_schema(self, member_count, depth=0, required_first=(), exclude=()):
        rng = self.rng
        names = list(required_first)
        pool = [w for w in PROPERTY_WORDS if w not in names and w not in exclude]
        while len(names) < member_count:
            word = rng.choice(pool)
            name = word if word not in names else word + str(len(names))
            if name not in names and name not in exclude:
                names.append(name)
        properties = {}
        for name in names:
            if name == "id":
                properties[name] = {"type": "string", "format": "uuid", "description": "Stable identifier."}
            elif name == "createdAt":
                properties[name] = primitive_schema("date-time")
            elif name == "kind":
                properties[name] = {"type": "string"}
            else:
                properties[name] = self.property_schema(depth)
        required = [n for n in names if n in required_first or rng.random() < 0.4]
        schema = {"type": "object", "properties": properties}
        if required:
            schema["required"] = required
        return schema

    def add(self, name, schema, description=None):
        if description:
            schema = dict(schema, description=description)
        self.schemas[name] = schema

    def build_schemas(self):
        rng = self.rng
        total = self.schema_count
        self.add(
            "ProblemDetails",
            {
                "type": "object",
                "required": ["code", "message"],
                "properties": {
                    "code": {"type": "string"},
                    "message": {"type": "string"},
                    "details": {"type": "array", "items": {"type": "string"}},
                    "retryAfterSeconds": {"type": "integer", "format": "int32"},
                },
            },
            "The error body every failed operation documents.",
        )
        index = 0
        while len(self.schemas) < total:
            index += 1
            noun = NOUNS[index % len(NOUNS)] + str(index)
            remaining = total - len(self.schemas)
            roll = rng.random()
            if roll < 0.12 or len(self.objects) < 3 and len(self.enums) < 2:
                values = sorted(rng.sample(ENUM_WORDS, rng.randint(3, 6)))
                self.add(noun + "Status", {"type": "string", "enum": values}, "Lifecycle state of a " + noun + ".")
                self.enums.append(noun + "Status")
            elif roll < 0.18 and len(self.objects) >= 3:
                base = rng.choice(self.objects)
                # No member of the extension repeats one of the base's, so the merge is unambiguous.
                extension = self.object_schema(rng.randint(2, 5), exclude=set(self.schemas[base]["properties"]))
                self.add(noun, {"allOf": [ref(base), extension]}, "A " + noun + " extends " + base + ".")
                self.resources.append(noun)
            elif roll < 0.23 and remaining >= 4:
                variants = []
                for suffix in ["Card", "Transfer", "Voucher"][: rng.randint(2, 3)]:
                    variant = noun + suffix
                    self.add(variant, self.object_schema(rng.randint(3, 6), required_first=("kind",)))
                    variants.append(variant)
                self.add(
                    noun,
                    {
                        "oneOf": [ref(v) for v in variants],
                        "discriminator": {
                            "propertyName": "kind",
                            "mapping": {v[len(noun):].lower(): "#/components/schemas/" + v for v in variants},
                        },
                    },
                    "One of " + ", ".join(variants) + ", told apart by `kind`.",
                )
                self.resources.append(noun)
            else:
                schema = self.object_schema(rng.randint(4, 12), required_first=("id", "createdAt"))
                self.add(noun, schema, "A " + noun + " as the API returns it.")
                self.objects.append(noun)
                self.resources.append(noun)

    # -- operations ---------------------------------------------------------------------------------

    def error_responses(self, codes):
        responses = {}
        for code in codes:
            text = {
                "400": "The request is malformed.",
                "404": "No such resource.",
                "409": "The resource changed meanwhile.",
                "422": "The request is well-formed but invalid.",
                "default": "Any other failure.",
            }[code]
            responses[code] = {
                "description": text,
                "content": {"application/json": {"schema": ref("ProblemDetails")}},
            }
        return responses

    def header_parameters(self):
        parameters = [
            {
                "name": "X-Request-ID",
                "in": "header",
                "required": False,
                "description": "Correlates the request with the server's logs.",
                "schema": {"type": "string", "format": "uuid"},
            }
        ]
        if self.rng.random() < 0.3:
            parameters.append(
                {"name": "X-Tenant", "in": "header", "required": True, "schema": {"type": "string"}}
            )
        return parameters

    def list_parameters(self):
        rng = self.rng
        parameters = [
            {"name": "limit", "in": "query", "schema": {"type": "integer", "format": "int32"}},
            {"name": "cursor", "in": "query", "schema": {"type": "string"}},
        ]
        if rng.random() < 0.6:
            parameters.append(
                {
                    "name": "ids",
                    "in": "query",
                    "style": "form",
                    "explode": True,
                    "schema": {"type": "array", "items": {"type": "string"}},
                }
            )
        if rng.random() < 0.5:
            parameters.append({"name": "since", "in": "query", "schema": primitive_schema("date-time")})
        if self.enums and rng.random() < 0.5:
            parameters.append({"name": "status", "in": "query", "schema": ref(rng.choice(self.enums))})
        return parameters + self.header_parameters()

    def json_body(self, schema_name, required=True):
        return {
            "required": required,
            "content": {"application/json": {"schema": ref(schema_name)}},
        }

    def form_body(self):
        rng = self.rng
        properties = {}
        for word in rng.sample(PROPERTY_WORDS, rng.randint(3, 6)):
            properties[word] = primitive_schema(rng.choice(["string", "int32", "int64", "boolean"]))
        properties["tags"] = {"type": "array", "items": {"type": "string"}}
        first = next(iter(properties))
        return {
            "required": True,
            "content": {
                "application/x-www-form-urlencoded": {
                    "schema": {"type": "object", "required": [first], "properties": properties}
                }
            },
        }

    def multipart_body(self):
        return {
            "required": True,
            "content": {
                "multipart/form-data": {
                    "schema": {
                        "type": "object",
                        "required": ["file"],
                        "properties": {
                            "file": {"type": "string", "format": "binary"},
                            "fileName": {"type": "string"},
                            "caption": {"type": "string"},
                        },
                    },
                    "encoding": {"file": {"contentType": "application/octet-stream"}},
                }
            },
        }

    def octet_body(self):
        return {
            "required": True,
            "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
        }

    def build_paths(self):
        rng = self.rng
        paths = {}
        count = 0
        resource_index = 0
        pool = list(self.resources)
        objects = list(self.objects)

        def add(path, method, operation):
            nonlocal count
            if count >= self.operation_count:
                return False
            paths.setdefault(path, {})[method] = operation
            count += 1
            return True

        while count < self.operation_count:
            schema = pool[resource_index % len(pool)]
            resource_index += 1
            plural = re.sub(r"([A-Z])", r"-\1", schema).strip("-").lower() + "s"
            tag = schema
            op = schema + ("s" if resource_index <= len(pool) else "s" + str(resource_index))
            collection = "/" + plural + ("" if resource_index <= len(pool) else str(resource_index))
            item_id = schema[0].lower() + schema[1:] + "Id"
            item = collection + "/{" + item_id + "}"
            id_schema = {"type": "string"} if rng.random() < 0.7 else {"type": "integer", "format": "int64"}
            item_parameter = {"name": item_id, "in": "path", "required": True, "schema": id_schema}
            input_schema = rng.choice(objects)

            list_responses = {
                "200": {
                    "description": "One page of " + plural + ".",
                    "headers": {
                        "X-Next-Cursor": {"schema": {"type": "string"}, "description": "Cursor of the next page."}
                    },
                    "content": {"application/json": {"schema": {"type": "array", "items": ref(schema)}}},
                }
            }
            list_responses.update(self.error_responses(["400", "default"]))
            add(collection, "get", {
                "operationId": "list" + op,
                "tags": [tag],
                "summary": "Lists " + plural + ".",
                "parameters": self.list_parameters(),
                "responses": list_responses,
            })

            created = {"201": {"description": "Created.", "content": {"application/json": {"schema": ref(schema)}}}}
            created.update(self.error_responses(["400", "409", "422"]))
            add(collection, "post", {
                "operationId": "create" + op,
                "tags": [tag],
                "summary": "Creates a " + schema + ".",
                "parameters": self.header_parameters(),
                "requestBody": self.json_body(input_schema),
                "responses": created,
            })

            read = {"200": {"description": "The " + schema + ".", "content": {"application/json": {"schema": ref(schema)}}}}
            read.update(self.error_responses(["404", "default"]))
            add(item, "get", {
                "operationId": "get" + op,
                "tags": [tag],
                "summary": "Reads one " + schema + ".",
                "parameters": [item_parameter] + self.header_parameters(),
                "responses": read,
            })

            if rng.random() < 0.6:
                replaced = {"200": {"description": "Replaced.", "content": {"application/json": {"schema": ref(schema)}}}}
                replaced.update(self.error_responses(["400", "404", "409"]))
                add(item, "put", {
                    "operationId": "replace" + op,
                    "tags": [tag],
                    "parameters": [item_parameter] + self.header_parameters(),
                    "requestBody": self.json_body(input_schema),
                    "responses": replaced,
                })

            if rng.random() < 0.5:
                updated = {"200": {"description": "Updated.", "content": {"application/json": {"schema": ref(schema)}}}}
                updated.update(self.error_responses(["400", "404", "422"]))
                add(item, "patch", {
                    "operationId": "update" + op,
                    "tags": [tag],
                    "parameters": [item_parameter],
                    "requestBody": self.json_body(rng.choice(objects), required=False),
                    "responses": updated,
                })

            deleted = {"204": {"description": "Deleted."}}
            deleted.update(self.error_responses(["404", "409"]))
            add(item, "delete", {
                "operationId": "delete" + op,
                "tags": [tag],
                "parameters": [item_parameter] + self.header_parameters(),
                "responses": deleted,
            })

            # One extra operation of a less common kind per resource, in rotation.
            extra = resource_index % 10
            accepted = {"202": {"description": "Accepted.", "content": {"application/json": {"schema": ref(schema)}}}}
            accepted.update(self.error_responses(["400", "404"]))
            if extra in (0, 5):
                add(item + "/form", "post", {
                    "operationId": "submit" + op + "Form",
                    "tags": [tag],
                    "parameters": [item_parameter],
                    "requestBody": self.form_body(),
                    "responses": accepted,
                })
            elif extra == 1:
                add(item + "/attachments", "post", {
                    "operationId": "upload" + op + "Attachment",
                    "tags": [tag],
                    "parameters": [item_parameter] + self.header_parameters(),
                    "requestBody": self.multipart_body(),
                    "responses": accepted,
                })
            elif extra == 2:
                add(item + "/content", "put", {
                    "operationId": "put" + op + "Content",
                    "tags": [tag],
                    "parameters": [item_parameter],
                    "requestBody": self.octet_body(),
                    "responses": {"204": {"description": "Stored."}, **self.error_responses(["404"])},
                })
            elif extra == 3:
                download = {
                    "200": {
                        "description": "The raw content.",
                        "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
                    }
                }
                download.update(self.error_responses(["404"]))
                add(item + "/content", "get", {
                    "operationId": "download" + op + "Content",
                    "tags": [tag],
                    "parameters": [item_parameter],
                    "responses": download,
                })
            else:
                action = rng.choice(["approve", "archive", "restore", "recalculate", "notify", "lock"])
                add(item + "/actions/" + action, "post", {
                    "operationId": action + op,
                    "tags": [tag],
                    "parameters": [item_parameter] + self.header_parameters(),
                    "requestBody": self.json_body(rng.choice(objects)),
                    "responses": accepted,
                })
        return paths, count

    def build(self):
        self.build_schemas()
        paths, count = self.build_paths()
        document = {
            "openapi": self.version,
            "info": {
                "title": "Synthetic benchmark API",
                "version": "1.0.0",
                "description": "Generated by Benchmarks/Scripts/make_openapi_document.py: "
                + str(count) + " operations, " + str(len(self.schemas)) + " schemas.",
            },
            "servers": [{"url": "https://api.example.com/v1", "description": "Production"}],
            "paths": paths,
            "components": {"schemas": self.schemas},
        }
        return document, count


# -- a small YAML writer (block style; strings that could be misread are double-quoted, JSON style) --

PLAIN = re.compile(r"^[A-Za-z_$][A-Za-z0-9_.$/+{}-]*$")
RESERVED = {"true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"}


def scalar(value):
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if PLAIN.match(value) and value.lower() not in RESERVED and "{" not in value[:1]:
        return value
    return json.dumps(value)


def write_yaml(value, out, indent=0):
    pad = " " * indent
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, (dict, list)) and item:
                out.append(pad + scalar(key) + ":")
                write_yaml(item, out, indent + 2)
            else:
                empty = "{}" if isinstance(item, dict) else "[]" if isinstance(item, list) else scalar(item)
                out.append(pad + scalar(key) + ": " + empty)
    else:
        for item in value:
            if isinstance(item, dict) and item:
                start = len(out)
                write_yaml(item, out, indent + 2)
                out[start] = pad + "- " + out[start][indent + 2:]
            elif isinstance(item, list) and item:
                out.append(pad + "-")
                write_yaml(item, out, indent + 2)
            else:
                out.append(pad + "- " + scalar(item))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", help="where to write the document (.json for JSON, else YAML)")
    parser.add_argument("--operations", type=int, default=500, help="number of operations (default 500)")
    parser.add_argument("--schemas", type=int, default=300, help="number of component schemas (default 300)")
    parser.add_argument("--seed", type=int, default=17, help="random seed (default 17)")
    parser.add_argument("--openapi", default="3.0.3", choices=["3.0.3", "3.1.0"], help="OpenAPI version")
    args = parser.parse_args(argv)
    if args.operations < 1 or args.schemas < 8:
        parser.error("need at least 1 operation and 8 schemas")
    document, count = DocumentBuilder(args.operations, args.schemas, args.seed, args.openapi).build()
    if args.output.endswith(".json"):
        text = json.dumps(document, indent=2) + "\n"
    else:
        lines = []
        write_yaml(document, lines)
        text = "\n".join(lines) + "\n"
    with open(args.output, "w", encoding="utf-8") as handle:
        handle.write(text)
    print(
        "%s: OpenAPI %s, %d operations, %d schemas, %d paths"
        % (args.output, args.openapi, count, len(document["components"]["schemas"]), len(document["paths"]))
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
