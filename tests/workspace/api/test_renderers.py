"""The API's JSON renderer (orjson) writes what DRF's JSONRenderer wrote, value for value."""

import datetime
import decimal
import json

from django.utils.translation import gettext_lazy
from rest_framework.renderers import JSONRenderer

from handoff.exports import plan_export_json
from planner.solver.pipeline import plan_scenario
from workspace.api.renderers import FastJSONRenderer

ODD_VALUES = {
    "when": datetime.datetime(2026, 11, 26, 16, 0, 0, 123456, tzinfo=datetime.timezone.utc),
    "day": datetime.date(2026, 11, 26),
    "price": decimal.Decimal("12.50"),
    "message": gettext_lazy("This field is required."),
    "line separators": "a\u2028b\u2029c",
    "name": "Zürich hall 2",
    7: "an integer key",
    "nested": [{"ratio": 1.0666667, "ports": 64, "none": None, "flag": True}],
}


def test_odd_values_read_as_drf_wrote_them():
    """DRF writes UTC datetimes with a Z, decimals as the settings say, lazy texts and integer
    keys as text, and U+2028/U+2029 escaped; the orjson renderer does the same."""
    ours, theirs = FastJSONRenderer().render(ODD_VALUES), JSONRenderer().render(ODD_VALUES)
    assert json.loads(ours) == json.loads(theirs)
    assert json.loads(ours)["when"] == "2026-11-26T16:00:00.123456Z"
    assert json.loads(ours)["price"] == 12.5  # COERCE_DECIMAL_TO_STRING is off here
    assert b"\\u2028" in ours and b"\\u2029" in ours and "\u2028".encode() not in ours
    assert "Zürich".encode() in ours  # UTF-8, as DRF's (UNICODE_JSON)


def test_a_plan_reads_the_same_and_an_indented_response_is_drfs(catalog):
    plan = plan_scenario({"name": "1k", "compute": {"system": "dgx-h100", "gpus": 1024},
                          "fabrics": {"compute": {"switch": "qm9700"}}}, catalog).to_dict()
    assert json.loads(FastJSONRenderer().render(plan)) == json.loads(JSONRenderer().render(plan))
    indented = FastJSONRenderer().render(plan, "application/json; indent=2")
    assert indented == JSONRenderer().render(plan, "application/json; indent=2")
    assert FastJSONRenderer().render(None) == b""


def test_the_plan_download_is_the_standard_librarys_indented_json(catalog):
    plan = plan_scenario({"name": "1k", "compute": {"system": "dgx-h100", "gpus": 1024}}, catalog).to_dict()
    assert plan_export_json(plan) == (json.dumps(plan, indent=2) + "\n").encode()
