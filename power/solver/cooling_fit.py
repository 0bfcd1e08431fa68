"""Whether a compute system is built for the way its racks are cooled.

The catalog says one thing about a system's cooling: `SystemSpec.liquid_cooling_required`.
A system that needs liquid is built for cold plates fed by a CDU (GB200/GB300 NVL72, the
MI355X liquid-cooled platform); any other system is air-cooled, with fans that push all its
heat into the air leaving the rack. The rack cooling types (power/catalog/cooling.yaml) match
them thus:

- air, rear_door: cool the air leaving the rack; fit an air-cooled system. A rear door takes
  the exhaust heat into water but feeds no cold plate.
- direct_liquid: cold plates and a CDU; fit a system built for cold plates.
- immersion: a tank of dielectric fluid; fits neither as the catalog describes them (an
  air-cooled server goes into a tank only as an immersion-ready variant without fans; a
  cold-plate system is not built to be submerged).

A system that needs liquid in air racks is refused before this is asked (`rack_packing`:
air gives no liquid, so no system fits a rack); the sentence for it is here for completeness.
"""

from catalog.solver.parts import SystemSpec

AIR_COOLED_SYSTEM_FITS = frozenset({"air", "rear_door"})
"""Rack cooling that carries the heat of a system whose fans blow it all into the air."""
LIQUID_COOLED_SYSTEM_FITS = frozenset({"direct_liquid"})
"""Rack cooling that feeds the cold plates of a system that needs liquid."""

RACKS_COOLED = {
    "air": "air-cooled",
    "rear_door": "cooled by rear-door heat exchangers",
    "direct_liquid": "cooled by direct-to-chip liquid (cold plates and CDUs)",
    "immersion": "immersion-cooled (tanks of dielectric fluid)",
}
"""The racks' cooling type in words."""


def cooling_mismatch_warning(system: SystemSpec, racks_cooling: str) -> str | None:
    """A plain sentence when `system` is not built for `racks_cooling` (a cooling type slug,
    racks.cooling), else None: what the mismatch means for the plan and what to change.

    Sources: NVIDIA DGX H100/B200 user guides (air-cooled systems); NVIDIA DGX SuperPOD GB200
    reference architecture (NVL72 racks are liquid-cooled through CDUs); power/catalog/cooling.yaml
    for what each rack cooling type removes."""
    cooled = RACKS_COOLED.get(racks_cooling, f"cooled by {racks_cooling}")
    if system.liquid_cooling_required:
        if racks_cooling in LIQUID_COOLED_SYSTEM_FITS:
            return None
        return (
            f"The {system.name} needs direct liquid cooling, but the racks are {cooled}: its "
            f"cold plates need coolant piped from a CDU, which these racks do not give, so the "
            f"plan's cooling and PUE do not describe a cluster that can run. Choose direct "
            f"liquid cooling for the racks, or an air-cooled system."
        )
    if racks_cooling in AIR_COOLED_SYSTEM_FITS:
        return None
    if racks_cooling == "immersion":
        return (
            f"The {system.name} is air-cooled, but the racks are {cooled}: its fans and drives "
            f"are built for air, and a tank takes only an immersion-ready variant whose price "
            f"and power the catalog does not give. Choose air or rear-door cooling, or a system "
            f"built for immersion."
        )
    return (
        f"The {system.name} is air-cooled, but the racks are {cooled}: it has no cold plates, "
        f"so its heat goes into the room's air, not into the liquid the plan counts on, and "
        f"the plan's cooling, kW per rack and PUE are too hopeful. Choose air or rear-door "
        f"cooling, or a liquid-cooled system."
    )
