"""Numbers as people type them into the editor: grouped thousands, percent signs, refusals."""

from typing import Literal

import pytest

from workspace.editor.form_input import percent_text, read_number
from workspace.editor.values import InputError, convert_text


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1,024", 1024),
        ("1 024", 1024),
        ("1\u00a0024", 1024),
        ("1\u202f024\u202f000", 1024000),
        ("12,345,678.5", 12345678.5),
        ("-2,500", -2500),
        ("1024", 1024),
        ("0.4", 0.4),
        (".5", 0.5),
        ("1.5e-3", 0.0015),
    ],
)
def test_numbers_are_read_with_or_without_thousands_separators(text, expected):
    value = read_number(text)
    assert value == expected and type(value) is type(expected)


@pytest.mark.parametrize("text", ["1,02,4", "1,5", "1,024 000", "10,00", "1.024,5", "12ab", "", "inf", "1__024"])
def test_ambiguous_or_junk_numbers_are_refused_with_how_to_write_them(text):
    with pytest.raises(InputError, match="is not a number: type digits, with thousands grouped by three"):
        read_number(text)


@pytest.mark.parametrize(
    "text, expected", [("8%", 0.08), ("8 %", 0.08), ("8", 0.08), ("8.5", 0.085), ("0.5%", 0.005), ("100", 1.0)]
)
def test_a_percentage_field_keeps_a_fraction(text, expected):
    assert read_number(text, percent=True, fraction=True) == pytest.approx(expected, rel=1e-15)


def test_a_percent_field_kept_in_percent_takes_the_sign_without_scaling():
    assert read_number("3%", percent=True) == 3


def test_a_percent_sign_in_a_field_that_is_no_percentage_is_refused():
    with pytest.raises(InputError, match="not a percentage"):
        read_number("8%")


@pytest.mark.parametrize("fraction, text", [(0.08, "8"), (0.07, "7"), (0.085, "8.5"), (0.9999, "99.99"), (1.0, "100")])
def test_fractions_are_shown_as_the_percent_people_type(fraction, text):
    assert percent_text(fraction) == text
    assert read_number(text, percent=True, fraction=True) == fraction


def test_a_choice_is_read_by_its_words_or_its_key():
    annotation = Literal["young", "daly", "daly_higher_order"] | float
    assert convert_text("Daly, higher order", annotation) == "daly_higher_order"
    assert convert_text("daly_higher_order", annotation) == "daly_higher_order"
    assert convert_text("3,600", annotation) == 3600


def test_text_a_choice_field_cannot_read_names_its_choices():
    with pytest.raises(InputError, match="“Young”, “Daly”"):
        convert_text("soon", Literal["young", "daly"] | float)
