"""The OpenAPI documents the generator's tests read (Tests/SwitchyardGenTests/OpenAPI, and the corpus
documents of our own in Tests/OpenAPICorpus/Documents) are valid OpenAPI 3.0 and 3.1, as the independent
`openapi-spec-validator` package reads them, and the DocC article's example document too; a broken
document is refused, so the check can fail."""
import json
import pathlib
import re

import pytest
import yaml
from openapi_spec_validator import validate
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "Tests" / "SwitchyardGenTests" / "OpenAPI").glob("*.openapi.*"))
CORPUS = sorted((ROOT / "Tests" / "OpenAPICorpus" / "Documents").iterdir())
ARTICLE = ROOT / "Sources" / "Switchyard" / "Switchyard.docc" / "GenerateEndpointsFromAnOpenAPIDocument.md"


def load(path):
    text = path.read_text()
    return json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)


def test_there_are_fixtures():
    assert len(FIXTURES) == 4


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_fixture_is_valid_openapi(path):
    validate(load(path))


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_corpus_document_is_valid_openapi(path):
    # Each reproduces a construct of a published document (Box, Twilio, OpenAI, Discord) that the
    # import once refused or dropped: valid OpenAPI all the same.
    assert len(CORPUS) == 6
    validate(load(path))


def test_the_article_document_is_valid_openapi():
    block = re.search(r"```yaml\n(# file: Bookshop\.openapi\.yaml\n.*?)```", ARTICLE.read_text(), re.S)
    assert block is not None
    validate(yaml.safe_load(block.group(1)))


def test_a_broken_document_is_refused():
    document = load(FIXTURES[0])
    document["paths"]["/broken"] = {"get": {"responses": {"200": {"content": {}}}}}  # a response needs a description
    with pytest.raises(OpenAPIValidationError):
        validate(document)
