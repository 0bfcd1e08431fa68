"""Keys in words: one table for the editor, the dashboard and the figures."""

import pytest

from workspace.dashboard.sections import format_value, label
from workspace.editor.labels import field_label
from workspace.words import choice_label, in_words


@pytest.mark.parametrize(
    "key, words",
    [
        ("ups_losses_kw", "UPS losses (kW)"),
        ("bom_total_usd", "BOM total (USD)"),
        ("mtbi_h", "MTBI (h)"),
        ("grid_gco2_per_kwh", "Grid CO₂ (g/kWh)"),
        ("it_kw", "IT (kW)"),
        ("nodes_per_rack", "Nodes per rack"),
    ],
)
def test_dashboard_labels_write_acronyms_and_units_as_such(key, words):
    assert label(key) == words


@pytest.mark.parametrize(
    "name, unit, words",
    [
        ("grid_gco2_per_kwh", "gCO2/kWh", "Grid CO₂"),
        ("ups_efficiency", "", "UPS efficiency"),
        ("management_server_kw", "kW", "Management server power"),
        ("air_delta_t_k", "K", "Air ΔT"),
    ],
)
def test_editor_labels_leave_the_unit_to_the_unit_beside_the_input(name, unit, words):
    assert field_label(name, unit) == words


@pytest.mark.parametrize(
    "value, words",
    [("a_b", "A/B feeds"), ("middle_of_row", "Middle of row"), ("fat_tree", "Fat tree"),
     ("aoc", "AOC"), ("bf16", "BF16"), ("N+1", "N+1"), (2, "2"), ("auto", "Auto")],
)
def test_choices_are_shown_in_words(value, words):
    assert choice_label(value) == words


def test_plan_values_that_are_keys_are_shown_in_words_and_slugs_as_they_are():
    assert format_value("middle_of_row") == "Middle of row"
    assert format_value("dgx-h100") == "dgx-h100"
    assert format_value({"air_handlers": 2.0, "qm9700": 1}) == "Air handlers: 2, qm9700: 1"


def test_help_texts_name_other_fields_in_words():
    text = "default: checkpoint_write_share of the interval (fabrics.<name>.fabric_manager), e.g. 2."
    assert in_words(text) == "default: checkpoint write share of the interval (fabric manager), e.g. 2."


def test_a_scenario_path_in_the_plan_is_shown_as_its_fields_words():
    assert format_value("racks.power_budget_kw") == "Racks › Power budget (kW)"
    assert label("racks.usable_u") == "Racks › Usable (U)"
    assert format_value({"racks.cooling": 4}) == "Racks › Cooling: 4"
    assert format_value("nvidia.com") == "nvidia.com", "a name with a dot is no path"


def test_an_error_path_in_words():
    from workspace.dashboard.plan_text import error_path_words

    assert error_path_words("racks.power_budget_kw") == "Racks › Power budget (kW)"
    assert error_path_words("pools[0].inference.kv_bytes_per_token") == "Pools 1 › Inference › KV bytes per token"
    assert error_path_words("document") == "The scenario"


def test_shares_are_shown_in_percent():
    from workspace.dashboard.plan_text import shown_value
    from workspace.words import is_share, percent_words

    assert shown_value("goodput", 0.982, {}) == "98.2 %"
    assert shown_value("checkpoint_write_share", 0.05, {}) == "5 %"
    assert shown_value("oversubscription", 0.5, {}) == "0.5"
    assert is_share("memory_overhead_fraction") and not is_share("pue")
    assert percent_words(0.000349) == "0.035 %"
