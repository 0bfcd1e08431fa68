import pytest

from core.solver.errors import ScenarioError
from planner.solver.documents import MAX_DOCUMENT_BYTES, parse_document


def error_of(text, syntax="auto") -> dict:
    with pytest.raises(ScenarioError) as caught:
        parse_document(text, syntax)
    return caught.value.as_dict()


def test_json_and_yaml_give_the_same_document():
    assert parse_document('{"name": "a", "compute": {"gpus": 8}}') == parse_document(
        "name: a\ncompute:\n  gpus: 8\n"
    )


def test_malformed_json_says_where():
    assert error_of('{"name": "a",', "json") == {
        "document": ["is not valid JSON: Expecting property name enclosed in double quotes at line 1 column 14"]
    }


def test_malformed_yaml_says_where():
    [message] = error_of("name: a\ncompute: {gpus: 8\n")["document"]
    assert message.startswith("is not valid YAML") and "line 3" in message


def test_oversized_document_is_refused():
    assert error_of(b" " * (MAX_DOCUMENT_BYTES + 1)) == {
        "document": ["is larger than the 1,024 KiB a scenario may be"]
    }


def test_binary_garbage_is_refused():
    assert "is not UTF-8 text" in error_of(b"\xff\xfe\x00")["document"][0]
