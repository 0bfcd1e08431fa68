"""Scenario documents as text: JSON or YAML in, plain data out, with errors a person can act on.

A document comes from anyone who can reach the plan endpoint, so reading one is bounded before
any work is done on it: its size in bytes, how deeply it nests, how long its texts, keys and
lists are, how many values it holds and how many digits its numbers have, each checked as the
text is read (a YAML event or a JSON token at a time), before the document is built. A key given
twice in one mapping is refused with its path (JSON and YAML alike: the last one would otherwise
win silently). YAML aliases (`*name`) are refused: a few
kilobytes of nested aliases expand to billions of nodes (the "billion laughs"), and a scenario
has no use for them. YAML is read with the YAML 1.2 core schema, as JSON is: `1e4` is a number,
`yes`, `on` and `2024-01-01` are text, `0o17` is octal and `1:20` is not sixty-based.
"""

import json
import re
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.events import (
    AliasEvent,
    MappingEndEvent,
    MappingStartEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)
from yaml.nodes import MappingNode, ScalarNode, SequenceNode
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import BaseResolver
from yaml.scanner import Scanner

from core.solver.errors import DOCUMENT_PATH, ScenarioError, join_path, printable

MAX_DOCUMENT_BYTES = 1024 * 1024
"""A scenario is a few kilobytes; a megabyte is far beyond any real one."""
MAX_DEPTH = 20
"""Mappings and lists inside one another; the deepest scenario key is six levels down."""
MAX_STRING_LENGTH = 10_000
"""Characters of any text or key (the spec's own fields allow far less)."""
MAX_KEY_LENGTH = 200
"""Characters of a mapping's key: keys name fields and catalog slugs."""
MAX_ITEMS = 10_000
"""Items of one list or entries of one mapping."""
MAX_VALUES = 100_000
"""Values of one document, every text, number, list and mapping counted: a scenario has a few
hundred. Counted as the text is read, so that a megabyte of `[1,1,1,…]` (half a million values)
is refused after reading a tenth of it, not once half a gigabyte of objects is built."""
MAX_NUMBER_CHARACTERS = 40
"""Characters of one number as written: more than any float or plan figure needs, and far below
the 4,300 digits at which Python refuses to convert an integer."""


def parse_document(text: str | bytes, syntax: str = "auto") -> Any:
    """Parse a scenario document written in JSON or YAML (`syntax`: json, yaml or auto).

    `auto` reads JSON when the text starts with `{`, else YAML (of which JSON is a subset).
    Raises ScenarioError for text that is malformed or breaks one of the limits above.
    """
    if len(text) > MAX_DOCUMENT_BYTES:
        raise ScenarioError.at(
            DOCUMENT_PATH, f"is larger than the {MAX_DOCUMENT_BYTES // 1024:,} KiB a scenario may be"
        )
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ScenarioError.at(DOCUMENT_PATH, f"is not UTF-8 text ({error.reason})") from None
    if syntax == "auto":
        syntax = "json" if text.lstrip().startswith("{") else "yaml"
    document = _parse_json(text) if syntax == "json" else _parse_yaml(text)
    check_document_shape(document)
    return document


def check_document_shape(document: Any) -> None:
    """Raise ScenarioError at the first value nested too deeply, too long, or not plain data.

    Walks the document without recursion, so a document nested deeper than Python's stack is
    refused too. Texts that cannot be stored (a NUL character, a lone UTF-16 surrogate) are
    refused here as well: PostgreSQL and UTF-8 encoders reject them.
    """
    stack: list[tuple[Any, str, int]] = [(document, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        where = path or DOCUMENT_PATH
        if isinstance(value, str):
            _check_text(value, where)
        elif isinstance(value, (dict, list)):
            if depth >= MAX_DEPTH:
                raise ScenarioError.at(where, f"is nested more than {MAX_DEPTH} levels deep")
            if len(value) > MAX_ITEMS:
                raise ScenarioError.at(where, f"has more than {MAX_ITEMS:,} items")
            if isinstance(value, dict):
                for key, item in value.items():
                    if not isinstance(key, str):
                        raise ScenarioError.at(join_path(path, printable(str(key)[:80])), "key must be text")
                    if len(key) > MAX_KEY_LENGTH:
                        raise ScenarioError.at(
                            join_path(path, printable(key[:80]) + "…"),
                            f"key is longer than {MAX_KEY_LENGTH} characters",
                        )
                    _check_text(key, join_path(path, printable(key)))
                    stack.append((item, join_path(path, key), depth + 1))
            else:
                stack.extend((item, join_path(path, index), depth + 1) for index, item in enumerate(value))
        elif isinstance(value, int) and not isinstance(value, bool):
            if len(str(value)) > MAX_NUMBER_CHARACTERS:
                raise ScenarioError.at(where, f"has more than {MAX_NUMBER_CHARACTERS} digits")
        elif not (value is None or isinstance(value, (bool, float))):
            raise ScenarioError.at(where, "must be text, a number, true, false, null, a list or a mapping")


_UNSTORABLE_TEXT = re.compile("[\x00\ud800-\udfff]")


def _check_text(text: str, path: str) -> None:
    if len(text) > MAX_STRING_LENGTH:
        raise ScenarioError.at(path, f"is longer than {MAX_STRING_LENGTH:,} characters")
    if _UNSTORABLE_TEXT.search(text):
        raise ScenarioError.at(path, "must not contain a NUL character or a lone UTF-16 surrogate")


def _number_token(token: str) -> str:
    if len(token) > MAX_NUMBER_CHARACTERS:
        raise ScenarioError.at(DOCUMENT_PATH, f"has a number of more than {MAX_NUMBER_CHARACTERS} characters")
    return token


def _too_many_values() -> ScenarioError:
    return ScenarioError.at(DOCUMENT_PATH, f"holds more than {MAX_VALUES:,} values")


class _KeyedTwice(dict):
    """A JSON object in which `key` was given more than once: found by its path after parsing."""

    def __init__(self, pairs, key: str):
        super().__init__(pairs)
        self.key = key


def _parse_json(text: str) -> Any:
    # The C parser calls these hooks once a number and once an object: counting there bounds
    # the Python work a document of half a million tiny values can cause.
    values = 0
    keyed_twice = False

    def number(token: str, convert):
        nonlocal values
        values += 1
        if values > MAX_VALUES:
            raise _too_many_values()
        return convert(_number_token(token))

    def mapping(pairs):
        nonlocal values, keyed_twice
        values += 1 + len(pairs)
        if values > MAX_VALUES:
            raise _too_many_values()
        result = dict(pairs)
        if len(result) == len(pairs):
            return result
        keyed_twice = True
        seen = set()
        duplicate = next(key for key, _ in pairs if key in seen or seen.add(key))
        return _KeyedTwice(pairs, duplicate)

    try:
        document = json.loads(
            text,
            parse_int=lambda token: number(token, int),
            parse_float=lambda token: number(token, float),
            object_pairs_hook=mapping,
        )
    except json.JSONDecodeError as error:
        raise ScenarioError.at(
            DOCUMENT_PATH, f"is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except RecursionError:
        raise ScenarioError.at(DOCUMENT_PATH, f"is nested more than {MAX_DEPTH} levels deep") from None
    if keyed_twice:
        _refuse_first_key_given_twice(document)
    return document


def _refuse_first_key_given_twice(document: Any) -> None:
    stack: list[tuple[Any, str]] = [(document, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, _KeyedTwice):
            raise _key_given_twice(join_path(path, printable(value.key[:MAX_KEY_LENGTH])))
        if isinstance(value, dict):
            stack.extend((item, join_path(path, printable(str(key)[:MAX_KEY_LENGTH]))) for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((item, join_path(path, index)) for index, item in enumerate(value))


def _key_given_twice(path: str) -> ScenarioError:
    return ScenarioError.at(path, "is given more than once in its mapping: keep one")


class _Core12Resolver(BaseResolver):
    """Plain scalars resolved as the YAML 1.2 core schema says (yaml.org/spec/1.2.2, 10.3.2)."""


for _tag, _pattern, _first in [
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
    (
        "tag:yaml.org,2002:float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        list("-+0123456789."),
    ),
]:
    _Core12Resolver.add_implicit_resolver(_tag, re.compile(_pattern), _first)


class _Core12Constructor(SafeConstructor):
    def construct_yaml_int(self, node):
        value = _number_token(self.construct_scalar(node))
        if value.startswith("0o"):
            return int(value[2:], 8)
        if value.startswith("0x"):
            return int(value[2:], 16)
        return int(value)

    def construct_yaml_float(self, node):
        value = _number_token(self.construct_scalar(node)).lower()
        if value.lstrip("+-") == ".inf":
            return float("-inf") if value.startswith("-") else float("inf")
        if value == ".nan":
            return float("nan")
        return float(value)


_Core12Constructor.add_constructor("tag:yaml.org,2002:int", _Core12Constructor.construct_yaml_int)
_Core12Constructor.add_constructor("tag:yaml.org,2002:float", _Core12Constructor.construct_yaml_float)


class _BoundedComposer(Composer):
    """Composes nodes with no aliases, no key given twice in a mapping, no more than MAX_DEPTH
    levels of collections, MAX_ITEMS items in one and MAX_VALUES in all, refusing each as soon
    as the event that breaks it is read (events are read lazily, so the rest is never scanned).
    It keeps the path of the node being composed, for the errors."""

    def __init__(self):
        super().__init__()
        self._path: list[str | int] = []
        self._values = 0

    def _where(self) -> str:
        path = ""
        for key in self._path:
            path = join_path(path, key)
        return path or DOCUMENT_PATH

    def compose_node(self, parent, index):
        if self.check_event(AliasEvent):
            event = self.peek_event()
            raise ScenarioError.at(
                DOCUMENT_PATH,
                f"uses a YAML alias (*{printable(str(event.anchor)[:80])}) at line {event.start_mark.line + 1}: "
                "aliases are not accepted, write the value out",
            )
        self._values += 1
        if self._values > MAX_VALUES:
            raise _too_many_values()
        if self.check_event(MappingStartEvent, SequenceStartEvent):
            if len(self._path) >= MAX_DEPTH:
                mark = self.peek_event().start_mark
                raise ScenarioError.at(
                    DOCUMENT_PATH, f"is nested more than {MAX_DEPTH} levels deep (line {mark.line + 1})"
                )
        return super().compose_node(parent, index)

    def compose_sequence_node(self, anchor):
        start_event = self.get_event()
        tag = start_event.tag
        if tag is None or tag == "!":
            tag = self.resolve(SequenceNode, None, start_event.implicit)
        node = SequenceNode(tag, [], start_event.start_mark, None, flow_style=start_event.flow_style)
        while not self.check_event(SequenceEndEvent):
            index = len(node.value)
            if index >= MAX_ITEMS:
                raise ScenarioError.at(self._where(), f"has more than {MAX_ITEMS:,} items")
            self._path.append(index)
            node.value.append(self.compose_node(node, index))
            self._path.pop()
        node.end_mark = self.get_event().end_mark
        return node

    def compose_mapping_node(self, anchor):
        start_event = self.get_event()
        tag = start_event.tag
        if tag is None or tag == "!":
            tag = self.resolve(MappingNode, None, start_event.implicit)
        node = MappingNode(tag, [], start_event.start_mark, None, flow_style=start_event.flow_style)
        keys: set[str] = set()
        while not self.check_event(MappingEndEvent):
            if len(node.value) >= MAX_ITEMS:
                raise ScenarioError.at(self._where(), f"has more than {MAX_ITEMS:,} items")
            key_node = self.compose_node(node, None)
            name = key_node.value if isinstance(key_node, ScalarNode) else "?"
            shown = printable(name[:MAX_KEY_LENGTH])
            if isinstance(key_node, ScalarNode):
                if name in keys:
                    raise _key_given_twice(join_path(self._where() if self._path else "", shown))
                keys.add(name)
            self._path.append(shown)
            node.value.append((key_node, self.compose_node(node, key_node)))
            self._path.pop()
        node.end_mark = self.get_event().end_mark
        return node


class _ScenarioYAMLLoader(Reader, Scanner, Parser, _BoundedComposer, _Core12Constructor, _Core12Resolver):
    def __init__(self, stream):
        Reader.__init__(self, stream)
        Scanner.__init__(self)
        Parser.__init__(self)
        _BoundedComposer.__init__(self)
        _Core12Constructor.__init__(self)
        _Core12Resolver.__init__(self)


if yaml.__with_libyaml__:
    from yaml._yaml import CParser

    class _FastScenarioYAMLLoader(_BoundedComposer, _Core12Constructor, _Core12Resolver, CParser):
        """The same loader with libyaml's scanner and parser under the composer above: the
        Python scanner takes half a second to read the MAX_ITEMS items of a list, libyaml 50 ms."""

        def __init__(self, stream):
            CParser.__init__(self, stream)
            _BoundedComposer.__init__(self)
            _Core12Constructor.__init__(self)
            _Core12Resolver.__init__(self)

    _YAML_LOADER = _FastScenarioYAMLLoader
else:
    _YAML_LOADER = _ScenarioYAMLLoader


def _parse_yaml(text: str) -> Any:
    try:
        return yaml.load(text, Loader=_YAML_LOADER)  # noqa: S506 (a safe constructor)
    except yaml.MarkedYAMLError as error:
        if "maximum nesting depth" in str(error.problem):
            # libyaml's own bound (1,000 levels), met while scanning ahead of the composer's
            raise ScenarioError.at(DOCUMENT_PATH, f"is nested more than {MAX_DEPTH} levels deep") from None
        mark = error.problem_mark
        where = f" at line {mark.line + 1} column {mark.column + 1}" if mark else ""
        raise ScenarioError.at(DOCUMENT_PATH, f"is not valid YAML: {error.problem or error}{where}") from None
    except (yaml.YAMLError, RecursionError) as error:
        raise ScenarioError.at(DOCUMENT_PATH, f"is not valid YAML: {error}") from None
    except UnicodeError:
        raise ScenarioError.at(DOCUMENT_PATH, "must not contain a lone UTF-16 surrogate") from None
