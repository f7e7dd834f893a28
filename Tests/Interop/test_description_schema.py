"""The JSON Schema for editors (Docs/switchyard-description.schema.json) accepts the descriptions the
generator accepts, and rejects the mistakes it rejects: checked with the independent `jsonschema`
package over the files PyYAML reads."""
import json
import pathlib

import jsonschema
import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "Docs" / "switchyard-description.schema.json").read_text())
DESCRIPTIONS = [
    ROOT / "Samples" / "Demo" / "Catalog.switchyard.yaml",
    ROOT / "Tests" / "SwitchyardGenTests" / "Petstore.switchyard.yaml",
    ROOT / "Tests" / "SwitchyardGenTests" / "Studio.switchyard.yaml",
    ROOT / "Tests" / "SwitchyardGenTests" / "Streams" / "Ticker.switchyard.yaml",
]


@pytest.mark.parametrize("path", DESCRIPTIONS, ids=lambda p: p.name)
def test_shipped_descriptions_match_the_schema(path):
    jsonschema.validate(yaml.safe_load(path.read_text()), SCHEMA)


@pytest.mark.parametrize(
    "mistake",
    [
        {"services": {"shop": {"environments": {"develop": "http://h"}, "endpoints": {"GetItem": {"methd": "GET", "path": "/x"}}}}},
        {"services": {"shop": {"environments": {"1st": "http://h"}}}},
        {"services": {"shop": {"environments": {"develop": "http://h"}, "endpoints": {"getItem": {"path": "/x"}}}}},
        {"services": {"shop": {"environments": {"develop": "http://h"}, "endpoints": {"GetItem": {"path": "/x", "options": {"cache": "cacheElseNetwrk"}}}}}},
        {"services": {"shop": {"environments": {"develop": "http://h"}, "endpoints": {"GetItem": {"path": "x"}}}}},
        {"models": {"Item": {"fields": {"id": "int"}}}},
        {"services": {"shop": {"environments": {"develop": "http://h"}, "endpoints": {"Follow": {"path": "/x", "response": {"stream": "text/plain"}}}}}},
        {"services": {"shop": {"environments": {"develop": "http://h"}, "endpoints": {"Follow": {"path": "/x", "response": {"stream": "application/jsonl"}}}}}},
    ],
)
def test_the_schema_rejects_mistakes(mistake):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(mistake, SCHEMA)
