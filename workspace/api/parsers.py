"""Request parsers for scenario documents: JSON or YAML, size-limited, errors named by path."""

from rest_framework.parsers import BaseParser

from planner.solver.documents import MAX_DOCUMENT_BYTES, parse_document


class _ScenarioParser(BaseParser):
    syntax = "json"

    def parse(self, stream, media_type=None, parser_context=None):
        text = stream.read(MAX_DOCUMENT_BYTES + 1) if stream is not None else b""
        return parse_document(text, self.syntax)


class ScenarioJSONParser(_ScenarioParser):
    media_type = "application/json"
    syntax = "json"


class ScenarioYAMLParser(_ScenarioParser):
    media_type = "application/yaml"
    syntax = "yaml"


class ScenarioLegacyYAMLParser(ScenarioYAMLParser):
    media_type = "application/x-yaml"
