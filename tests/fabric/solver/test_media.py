"""Cable media by length and rate, stock lengths, and the optics at each end."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog.rows import catalog_snapshot_from_files
from core.solver.interfaces import PortEnd
from fabric.solver.media import (
    cable_for_link,
    link_choice,
    link_choice_at,
    module_for_port,
    stock_length_m,
)

SEEDED_CATALOG = catalog_snapshot_from_files()


@pytest.mark.parametrize(
    ("length_m", "gbps", "media", "cable", "stock_m"),
    [
        (1.2, 400, "dac", "dac-400g", 1.5),        # in the rack: passive copper, next stock length
        (4.0, 400, "acc", "acc-800g", 4),          # beyond 3 m DAC reach: active copper to 5 m
        (15, 400, "fiber", "mpo12-om4", 15),       # transceivers plus fiber
        (200, 800, "fiber", "mpo12-os2", 200),     # beyond multimode: single-mode, made to length
        (1, 1, "twisted_pair", "cat6a-rj45", 1),   # 1GbE management
    ],
)
def test_media_follow_the_length(catalog, length_m, gbps, media, cable, stock_m):
    choice = cable_for_link(length_m, gbps, catalog.cables)
    assert (choice.media, choice.cable, choice.cable_length_m) == (media, cable, stock_m)


def test_active_optical_cables_when_preferred(catalog):
    choice = cable_for_link(15, 400, catalog.cables, optical_media="aoc")
    assert (choice.media, choice.cable, choice.cable_length_m) == ("aoc", "aoc-400g", 15)
    # beyond the AOC's 30 m, fiber it is
    assert cable_for_link(60, 400, catalog.cables, optical_media="aoc").media == "fiber"


def test_fiber_pairs_with_the_modules_reach(catalog):
    # a 100 m DR4 module pairs with single-mode fiber even on a 15 m run
    assert cable_for_link(15, 400, catalog.cables, module_reach_m=100).cable == "mpo12-os2"


def test_stock_length_rounds_up_or_makes_to_length():
    assert stock_length_m(2.2, (1, 2, 3)) == 3
    assert stock_length_m(2.0, (1, 2, 3)) == 2
    assert stock_length_m(7, (1, 2, 3)) == 7


def test_twin_port_module_for_a_twin_port_cage(catalog):
    # QM9700 cage: 2 x 400G -> one 800G twin-port module serving two links
    assert module_for_port(catalog.transceivers, 800, 2, 15).slug == "osfp-800g-2xsr4"
    # same cage at 80 m: multimode no longer reaches, single-mode DR4 twin module does
    assert module_for_port(catalog.transceivers, 800, 2, 80).slug == "osfp-800g-2xdr4"
    # an unsplit 800G port: a single-port DR8
    assert module_for_port(catalog.transceivers, 800, 1, 15).slug == "osfp-800g-dr8"
    # the NIC end follows the other end's fiber
    assert module_for_port(catalog.transceivers, 400, 1, 15, fiber="singlemode").slug == "osfp-400g-dr4"
    assert module_for_port(catalog.transceivers, 3200, 2, 15) is None


@settings(max_examples=200, deadline=None)
@given(
    length_m=st.floats(min_value=0.01, max_value=10_000),
    reach_drawn=st.booleans(),
    link_gbps=st.sampled_from((1, 10, 25, 100, 200, 400, 800, 1600)),
    ends=st.sampled_from((None, (PortEnd(800, 2), PortEnd(400, 1)), (PortEnd(400, 1), PortEnd(400, 1)),
                          (PortEnd(1600, 2), PortEnd(800, 1)), (PortEnd(100, 4), PortEnd(400, 1)))),
    optical_media=st.sampled_from(("transceivers", "aoc")),
)
def test_the_kept_steps_choose_as_the_catalog_search(length_m, reach_drawn, link_gbps, ends, optical_media):
    """A segment's first estimate reads its choice from the catalog's steps (`link_choice_at`):
    for any length, a reach itself among them, it is the choice `link_choice` searches for."""
    catalog = SEEDED_CATALOG
    lower, upper = ends or (None, None)
    if reach_drawn:  # a length on a step's edge: a catalog reach
        reaches = sorted({part.reach_m for part in (*catalog.cables.values(), *catalog.transceivers.values())})
        length_m = reaches[int(length_m) % len(reaches)]
    arguments = (link_gbps, lower, upper, catalog.cables, catalog.transceivers, optical_media)
    assert link_choice_at(length_m, *arguments) == link_choice(length_m, *arguments)
