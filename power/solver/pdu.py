"""Rack power distribution: what a PDU carries, and how many a rack needs for its feeds.

Sources: P = √3 × V_LL × I × pf for a balanced three-phase circuit, P = V × I × pf for one
phase; North American practice (NEC 210.19/210.20) loads a continuous circuit to 80 % of its
rating, IEC circuits are rated without that factor. See `../shared/reference/published-cases.md`
("Three-phase power") and `../shared/reference/component-facts.md` §6.4.
"""

import math
from dataclasses import dataclass

from catalog.solver.power_parts import PduSpec, PowerFeeds

FEEDS_PER_RACK: dict[str, int] = {"a_b": 2, "single": 1}

SQRT_3 = math.sqrt(3)


def three_phase_kva(voltage_v: float, current_a: float) -> float:
    """Apparent power [kVA] of a balanced three-phase circuit: S = √3 × V_LL × I / 1,000.

    415 V line-to-line at 60 A: √3 × 415 × 60 = 43.1 kVA.
    """
    return SQRT_3 * voltage_v * current_a / 1_000


def single_phase_kva(voltage_v: float, current_a: float) -> float:
    """Apparent power [kVA] of a single-phase circuit: S = V × I / 1,000."""
    return voltage_v * current_a / 1_000


def pdu_kva(pdu: PduSpec) -> float:
    """Apparent power [kVA] of a PDU's input circuit, three- or single-phase."""
    if pdu.phases == 3:
        return three_phase_kva(pdu.voltage_v, pdu.current_a)
    return single_phase_kva(pdu.voltage_v, pdu.current_a)


def pdu_capacity_kw(pdu: PduSpec, power_factor: float = 1.0) -> float:
    """Continuous real power [kW] a PDU may carry: P = S × derating × pf.

    415 V / 60 A at 80 % derating and unity power factor: 43.1 kVA × 0.8 = 34.5 kW. Server power
    supplies with active power-factor correction run at pf ≈ 0.99, hence the default of 1.
    """
    return pdu_kva(pdu) * pdu.continuous_derating * power_factor


@dataclass(frozen=True)
class RackPduResult:
    pdu: str
    """Catalog slug."""
    pdus: int
    """PDUs in the rack, all feeds together."""
    pdus_per_feed: int
    feeds: int
    capacity_kw_per_pdu: float
    capacity_kw_per_feed: float
    carries_rack_on_one_feed: bool
    """With A/B feeds: one feed alone carries the whole rack (the point of having two)."""
    carries_rack: bool
    """All feeds together carry the rack."""


def pdus_per_feed_for(rack_kw: float, capacity_kw_per_pdu: float) -> int:
    """PDUs one feed needs to carry the whole rack on its own: max(1, ceil(rack_kw / capacity))."""
    return max(1, math.ceil(rack_kw / capacity_kw_per_pdu - 1e-9))


def rack_pdus(
    rack_kw: float,
    pdu: PduSpec,
    feeds: PowerFeeds,
    pdus_per_rack: int | None = None,
    power_factor: float = 1.0,
) -> RackPduResult:
    """PDUs for one rack drawing `rack_kw` [kW].

    Unless the architect fixes `pdus_per_rack`, each feed gets enough PDUs to carry the whole
    rack by itself, so that the rack keeps running when the other feed is lost:
    pdus = feeds × ceil(rack_kw / capacity_kw_per_pdu). A fixed count is split evenly over the
    feeds (rounded down per feed) and checked instead.
    """
    feed_count = FEEDS_PER_RACK[feeds]
    capacity = pdu_capacity_kw(pdu, power_factor)
    if pdus_per_rack is None:
        per_feed = pdus_per_feed_for(rack_kw, capacity)
        total = per_feed * feed_count
    else:
        total = pdus_per_rack
        per_feed = pdus_per_rack // feed_count
    return RackPduResult(
        pdu=pdu.slug,
        pdus=total,
        pdus_per_feed=per_feed,
        feeds=feed_count,
        capacity_kw_per_pdu=capacity,
        capacity_kw_per_feed=per_feed * capacity,
        carries_rack_on_one_feed=per_feed * capacity >= rack_kw - 1e-9,
        carries_rack=total * capacity >= rack_kw - 1e-9,
    )
