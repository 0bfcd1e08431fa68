from pathlib import Path

from planner.scenario_reference import scenario_reference_markdown

REFERENCE = Path(__file__).resolve().parents[2] / "docs" / "scenario-reference.md"


def test_the_committed_reference_lists_every_key_as_the_code_has_it():
    """Regenerate with `python manage.py scenarioreference > docs/scenario-reference.md`."""
    assert REFERENCE.read_text() == scenario_reference_markdown()


def test_the_reference_names_keys_by_dotted_path_with_defaults_and_units():
    text = scenario_reference_markdown()
    assert "| `racks.power_budget_kw` | number 0 to 2,000 | `41.0` | kW | IT power one rack may draw. |" in text
    assert "| `compute.gpus` | whole number 1 to 10,000,000 or null | `null` |" in text
    assert "`fabrics.<name>.oversubscription.leaf`" in text
