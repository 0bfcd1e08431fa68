"""Grouping the plan's warnings: one line per sentence, the numbers that differ as ranges, the
most serious first, each with the section it is about."""

from planner.solver.warning_groups import (
    CRITICAL,
    NOTICE,
    WARNING,
    group_warnings,
    warning_section,
    warning_severity,
)


def missing_optic(length_m: float) -> str:
    # As fabric.solver.fabric writes it for one assumed link length.
    return (
        f"No transceiver in the catalog fits a 800 Gb/s port reaching {length_m:g} m on the "
        "node-leaf links; they are counted without optics."
    )


STRANDED = (
    "Each full compute rack draws 40.8 kW of its 41 kW power budget (limited by power): 0.2 kW "
    "per rack, 6 kW over 32 racks, stay stranded."
)
OVERSUBSCRIBED = (
    "qm9700 leaves of the compute fabric uplink over their 32 fixed 400 Gb/s ports: 1.5:1 "
    "oversubscribed, more than the 1:1 asked."
)


def test_fifteen_warnings_that_differ_by_a_length_are_one_line_with_the_range():
    warnings = [missing_optic(length) for length in range(3, 18)]
    groups = group_warnings(warnings)
    assert len(groups) == 1
    assert groups[0].count == 15
    assert groups[0].members == tuple(warnings)
    assert "reaching 3–17 m on the node-leaf links" in groups[0].message
    # The number that is the same in every warning stays as it is.
    assert "a 800 Gb/s port" in groups[0].message


def test_numbers_with_thousands_separators_and_decimals_range_by_value():
    warnings = [f"The last compute rack draws {kw} kW." for kw in ("1,200.5", "950", "10,000")]
    (group,) = group_warnings(warnings)
    assert group.message == "The last compute rack draws 950–10,000 kW."


def test_digits_of_part_names_keep_warnings_about_other_parts_apart():
    warnings = [OVERSUBSCRIBED, OVERSUBSCRIBED.replace("qm9700", "qm8790")]
    groups = group_warnings(warnings)
    assert [group.count for group in groups] == [1, 1]
    assert {group.message.split()[0] for group in groups} == {"qm9700", "qm8790"}


def test_most_serious_first_then_the_larger_group_then_the_planners_order():
    warnings = [STRANDED, OVERSUBSCRIBED, missing_optic(3), missing_optic(5), OVERSUBSCRIBED]
    groups = group_warnings(warnings)
    assert [(group.severity, group.count) for group in groups] == [
        (CRITICAL, 2),
        (WARNING, 2),
        (NOTICE, 1),
    ]
    assert groups[1].message == OVERSUBSCRIBED


def test_each_group_names_its_section():
    groups = {group.section for group in group_warnings([STRANDED, OVERSUBSCRIBED])}
    assert groups == {"racks", "fabrics"}


def test_severity_and_section_of_the_planners_sentences():
    goodput = (
        "At a goodput of 92.3%, the job takes 58.5 days, more than the 54 days allowed: about "
        "22,239 GPUs would finish in time, or reduce the time lost to failures."
    )
    idle = (
        "The hot_flash tier needs 172 ddn-ai400x2-turbo systems for bandwidth but only 1 for "
        "capacity: it holds 88 TB of its 86,000 TB, so most of its capacity sits idle."
    )
    pdu = (
        "2 compute racks draw 60 kW, more than their 1 PDU(s) carry (34.5 kW): use more PDUs "
        "per rack or a larger PDU."
    )
    assert (warning_severity(goodput), warning_section(goodput)) == (CRITICAL, "reliability")
    assert (warning_severity(idle), warning_section(idle)) == (NOTICE, "storage")
    assert (warning_severity(pdu), warning_section(pdu)) == (CRITICAL, "power")
    assert warning_section("Something about the GPUs.") == "compute"


def test_no_warnings_no_groups():
    assert group_warnings([]) == []
