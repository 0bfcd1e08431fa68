"""Three-phase feeds and PDUs per rack (published-cases.md, "Three-phase power")."""

import pytest

from catalog.solver.power_parts import PduSpec
from power.solver.pdu import pdu_capacity_kw, pdu_kva, rack_pdus, single_phase_kva, three_phase_kva


def test_415v_60a_feed_is_43_1_kva_and_34_5_kw_derated(catalog):
    assert three_phase_kva(415, 60) == pytest.approx(43.1, abs=0.05)
    pdu = catalog.pdus["pdu-415v-60a-3ph"]
    assert pdu_kva(pdu) == pytest.approx(43.1, abs=0.05)
    assert pdu_capacity_kw(pdu) == pytest.approx(34.5, abs=0.05)  # 43.13 x 0.8


@pytest.mark.parametrize(
    ("slug", "kva", "kw"),
    [
        ("pdu-415v-32a-iec", 23.0, 23.0),  # IEC: no 80 % factor
        ("pdu-415v-63a-iec", 45.3, 45.3),
        ("pdu-415v-100a-3ph", 71.9, 57.5),
        ("pdu-208v-60a-3ph", 21.6, 17.3),
        ("pdu-230v-32a-1ph", 7.36, 7.36),  # 230 V x 32 A, single phase
    ],
)
def test_catalog_pdus_match_component_facts(catalog, slug, kva, kw):
    pdu = catalog.pdus[slug]
    assert pdu_kva(pdu) == pytest.approx(kva, abs=0.05)
    assert pdu_capacity_kw(pdu) == pytest.approx(kw, abs=0.05)


def test_single_phase_and_power_factor():
    assert single_phase_kva(230, 16) == pytest.approx(3.68)
    pdu = PduSpec(slug="p", name="p", price_usd=0, voltage_v=230, phases=1, current_a=16, outlets=8)
    assert pdu_capacity_kw(pdu, power_factor=0.95) == pytest.approx(3.68 * 0.95)


def test_a_b_feeds_each_carry_the_whole_rack(catalog):
    pdu = catalog.pdus["pdu-415v-60a-3ph"]
    # 40.8 kW / 34.5 kW per PDU -> 2 PDUs per feed, 4 in the rack with A and B feeds
    result = rack_pdus(40.8, pdu, "a_b")
    assert (result.pdus, result.pdus_per_feed, result.feeds) == (4, 2, 2)
    assert result.carries_rack_on_one_feed and result.carries_rack
    single = rack_pdus(40.8, pdu, "single")
    assert (single.pdus, single.pdus_per_feed) == (2, 2)
    # Even an empty rack gets one PDU per feed.
    assert rack_pdus(0.0, pdu, "a_b").pdus == 2


def test_a_fixed_count_that_cannot_survive_a_lost_feed(catalog):
    pdu = catalog.pdus["pdu-415v-60a-3ph"]
    # 2 PDUs on A/B: 1 per feed, 34.5 kW < 40.8 kW: a lost feed overloads the other one;
    # both together (69 kW) carry the rack.
    result = rack_pdus(40.8, pdu, "a_b", pdus_per_rack=2)
    assert (result.pdus, result.pdus_per_feed) == (2, 1)
    assert not result.carries_rack_on_one_feed and result.carries_rack
    assert not rack_pdus(80, pdu, "a_b", pdus_per_rack=2).carries_rack
