"""The fabrics ⇄ racks ⇄ cables fixed point, written once for one cluster and for a site of N
pools: what a round plans and packs is the design's (`Design`), the order of the rounds is here.

Two inputs of the fabrics are only known once racks are packed, which needs the fabrics'
switches:
- top-of-rack leaves share the compute racks: their count depends on the systems per rack,
  which their rack units and power lower in turn;
- the oob network serves every rack PDU's management port, and PDUs follow the racks (each
  rack's kW), which the oob switches add to.
And the optics' power, which the racks carry, is only known once every cable is placed.

Rule: start from the racks packed without switches; plan the fabrics (no PDUs on oob yet) and
pack again until the systems per rack agree. Then plan the fabrics with the PDUs of the last
packing on oob, pack, and repeat (only oob is planned again when only the PDUs changed) until
the packing gives back the PDUs oob was planned with. Then every cable is placed on the floor
and counted (`cabling_counts.counted_fabrics`: the BOM's cables and optics are the cabling
plan's rows), and the racks are packed again with the optics' power as counted, until the
packing places every device where the cables were measured (`placement_key`) with the PDUs
oob serves. Each round can only add switches, racks and PDUs, so this converges, in one or two
rounds. Fabric managers, management servers and storage systems are known before, and join oob
from the start.
"""

from dataclasses import dataclass, replace
from typing import Protocol

from core.solver.records import copy_with
from fabric.solver.cabling import PlanCabling
from fabric.solver.cabling_counts import counted_fabrics, estimated_fabrics
from fabric.solver.cabling_links import SAMPLE_LINKS
from fabric.solver.cabling_racks import placement_key
from fabric.solver.results import FabricResult
from power.solver.power_plan import CooledRacks, rack_pdu_counts
from power.solver.rack_packing import RacksResult

CABLES_COUNTED = "counted"
"""Every cable placed and counted where it stands: the plan the pages and exports show."""
CABLES_SAMPLED = "sampled"
"""A screen: the racks packed with the optics of a sample of the links (a sweep)."""
CABLES_ENGINE = "engine"
"""A coarser screen: the racks packed with the fabric engine's optics (one length a segment)."""
CABLE_MODES = (CABLES_COUNTED, CABLES_SAMPLED, CABLES_ENGINE)


@dataclass(frozen=True)
class PlanOptions:
    """How far a plan goes: by default every cable counted where it stands, on the floor laid out.

    `cables` other than CABLES_COUNTED screens the design (a sweep): the cables are not placed
    and counted one by one, and the cables and modules are the fabric engine's (one length a
    segment). CABLES_SAMPLED packs the racks once more with the optics' power of a sample of the
    links where they stand (`cabling_counts.estimated_fabrics`); CABLES_ENGINE packs them with
    the engine's optics. `lay_out_floor` False leaves the floor layout out of a CABLES_ENGINE
    screen (`racks.floor` None, `racks.rows` 0; no other figure changes): the cabling, counted
    or sampled, needs the floor.
    """

    cables: str = CABLES_COUNTED
    lay_out_floor: bool = True

    def __post_init__(self) -> None:
        if self.cables != CABLES_ENGINE:
            object.__setattr__(self, "lay_out_floor", True)


FULL_PLAN = PlanOptions()
"""Every cable counted, the floor laid out: the plan the pages and exports show."""

PLAN_AND_PACK_ROUNDS = 6
"""Plan-and-pack rounds until top-of-rack leaves and the PDUs on the oob network agree with the
racks (they agree after one to three)."""
CABLING_ROUNDS = 10
"""Count-and-pack rounds, the PDUs joining oob included (they agree after one to three)."""
ESTIMATE_ROUNDS = 3
"""Sampled estimates of the optics' power before the cables are counted: another where the
last moved devices between racks, where the sample is at most 1 / ESTIMATE_SHARE of the links."""
ESTIMATE_SHARE = 4


class Design(Protocol):
    """What the rounds plan and pack: a site's pools (`site_design.SiteDesign`; one cluster is a
    site of one pool)."""

    oob: bool
    """Whether an oob fabric serves the racks' PDUs."""

    def plan(self, pdus: dict[str, int], planned: dict[str, FabricResult] | None = None) -> dict[str, FabricResult]:
        """Every fabric, with `pdus` (by slug) on oob; `planned`: all but oob are these."""

    def pack(self, fabrics: dict[str, FabricResult], optics_kw: dict[str, float]) -> RacksResult:
        """The racks for these fabrics' switches with these optics' power [kW] by device."""

    def leaves_moved(self) -> bool:
        """Whether the last packing holds other systems per rack than top-of-rack leaves serve."""

    def follow_leaves(self) -> None:
        """The top-of-rack leaves follow the systems per rack of the last packing."""

    def cabling(self, fabrics: dict[str, FabricResult], racks: RacksResult) -> PlanCabling:
        """Every cable of the fabrics, placed where the last packing puts the devices."""

    def screened(self, fabrics: dict[str, FabricResult]) -> None:
        """The rounds of a screen (CABLES_ENGINE) settled on these fabrics."""

    def settled(self) -> tuple[dict[str, FabricResult], CooledRacks] | None:
        """What the rounds of another screen that read the same settled on (`screened`), packed
        and cooled for this design; None when there is none."""

    def cooled(self) -> CooledRacks:
        """The last packing with its cooling plant, parts and warnings (the facility's power is
        the plan's last step: `pipeline.PlanBasis.plan`)."""

    def warnings(self) -> list[str]:
        """What the rounds changed of the design's input (systems per rack capped)."""


def settle(design: Design, cables: str = CABLES_COUNTED) -> tuple[dict[str, FabricResult], CooledRacks]:
    """The fabrics and the cooled racks where they agree (the module's rule). `cables`
    other than CABLES_COUNTED screens: CABLES_ENGINE stops once the PDUs agree, with the
    engine's optics; CABLES_SAMPLED once the racks are packed with a sample's optics."""
    if cables == CABLES_ENGINE:
        settled = design.settled()
        if settled is not None:
            return settled

    def pack(fabrics: dict[str, FabricResult], reserve: dict[str, float] | None = None) -> RacksResult:
        return design.pack(fabrics, racks_optics_kw(reserve, fabrics) if reserve else optics_kw_by_device(fabrics))

    cabled: list = []

    def cabling_for(fabrics: dict[str, FabricResult], racks: RacksResult, key: tuple) -> PlanCabling:
        """The last cabling made where they are the same fabrics, placed alike (an estimate's
        racks, packed again with its optics, often place them so), or a new one."""
        if not cabled or cabled[0] is not fabrics or cabled[1] != key:
            cabled[:] = fabrics, key, design.cabling(fabrics, racks)
        return cabled[2]

    # Top-of-rack leaves and the racks agree, without PDUs on oob yet.
    for _ in range(PLAN_AND_PACK_ROUNDS):
        fabrics = design.plan({})
        racks = pack(fabrics)
        if not design.leaves_moved():
            break
        design.follow_leaves()
    else:
        fabrics = design.plan({})
        racks = pack(fabrics)
    # The PDUs of the last packing join oob, until the packing gives back the PDUs oob was
    # planned with; then the cables are counted where they stand, until the packing with their
    # optics puts every device where they were measured.
    pdus: dict[str, int] = {}
    counted = counted_at = reserve = estimate = estimated_at = None
    estimates = 0
    seen: set = set()
    for _ in range(CABLING_ROUNDS):
        key = placement_key(racks)
        if key in seen and reserve is None:
            # The counts and PDUs alternate between packings: from now on pack for the largest
            # optics counted, which only grows, so the packing settles.
            reserve = optics_kw_by_device(counted) if counted else {}
        seen.add(key)
        if design.leaves_moved():
            # The optics as counted changed the systems per rack: the top-of-rack leaves follow.
            design.follow_leaves()
            fabrics = design.plan(pdus)
            racks, counted = pack(fabrics, reserve), None
            continue
        if design.oob and rack_pdu_counts(racks) != pdus:
            pdus = rack_pdu_counts(racks)
            fabrics = design.plan(pdus, fabrics)
            # Every fabric's optics as last counted (or estimated): a few PDUs more or less
            # change oob's cables little, and its modules as the engine guesses them (one
            # length a segment) would move the packing back and forth.
            packed_with = counted or estimate
            if packed_with:
                oob_optics = packed_with["oob"].optics_power_kw_by_device
                racks = pack({**packed_with, "oob": copy_with(fabrics["oob"], optics_power_kw_by_device=oob_optics)},
                             reserve)
            else:
                racks = pack(fabrics, reserve)
            counted = None
            continue
        if not fabrics or (counted is not None and counted_at == key):
            break
        if cables == CABLES_ENGINE:
            design.screened(fabrics)
            return fabrics, design.cooled()
        cabling = cabling_for(fabrics, racks, key)
        if estimate is None or (counted_at is None and estimated_at != key and estimates < ESTIMATE_ROUNDS
                                and _sampled(fabrics)):
            # The engine's optics take one length per segment: first pack with the optics of a
            # sample of the cables where they stand, which often moves switches between racks,
            # and again where they moved, so that the full count is made once, where they end up.
            estimate, estimated_at, estimates = estimated_fabrics(cabling), key, estimates + 1
            racks, seen = pack(estimate, reserve), set()
            if cables == CABLES_SAMPLED:
                return estimate, design.cooled()
            continue
        counted, counted_at = counted_fabrics(cabling), key
        if reserve is not None:
            reserve = {device: max(kw, reserve.get(device, 0.0))
                       for device, kw in {**reserve, **optics_kw_by_device(counted)}.items()}
        racks = pack(counted, reserve)
    key = placement_key(racks)
    if fabrics and (counted is None or counted_at != key):
        counted = counted_fabrics(cabling_for(fabrics, racks, key))
    cooled = design.cooled()
    warnings = [*cooled.warnings, *design.warnings()]
    if reserve:
        margin_kw = sum(racks_optics_kw(reserve, counted).values()) - sum(optics_kw_by_device(counted).values())
        if margin_kw > 1e-9:
            warnings.append(
                f"The optics' power moved switches between racks from one count of the cables to the "
                f"next: the racks are packed and powered for the largest count, {margin_kw:,.2f} kW more "
                f"than the modules the cabling plan holds."
            )
    return (counted if fabrics else fabrics), replace(cooled, warnings=tuple(warnings))


def _sampled(fabrics: dict[str, FabricResult]) -> bool:
    """Whether the optics' estimate samples at most a quarter of the links: only then is another
    estimate worth making before the count (otherwise it costs about what the count does)."""
    links = [link.count for fabric in fabrics.values() for link in fabric.links]
    return sum(links) >= ESTIMATE_SHARE * sum(min(count, SAMPLE_LINKS) for count in links)


def racks_optics_kw(reserve: dict[str, float], counted: dict[str, FabricResult]) -> dict[str, float]:
    """The optics' power [kW] the racks are packed for: the counted, or the reserve where larger."""
    optics_kw = optics_kw_by_device(counted)
    return {device: max(optics_kw.get(device, 0.0), reserve.get(device, 0.0))
            for device in optics_kw.keys() | reserve.keys()}


def optics_kw_by_device(fabrics: dict[str, FabricResult]) -> dict[str, float]:
    """The modules' power [kW] by the slug of the switch or system that holds them, all fabrics.
    A system's share (only when its rating leaves its NIC modules out) is added to its power,
    the switches' to theirs: each module draws in the rack where it is plugged in."""
    totals: dict[str, float] = {}
    for fabric in fabrics.values():
        for device, kw in fabric.optics_power_kw_by_device.items():
            totals[device] = totals.get(device, 0.0) + kw
    return totals
