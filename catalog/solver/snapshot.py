"""The catalog as the solver sees it: plain parts by slug (the scenario's checks against it are
in planner.solver.references)."""

from dataclasses import dataclass, field, replace
from typing import Any

from catalog.solver.fabric_parts import CableSpec, SwitchSpec, TransceiverSpec
from catalog.solver.operating_points import InferenceOperatingPointSpec
from catalog.solver.parts import PartSpec, ServerSpec, SystemSpec
from catalog.solver.power_parts import CoolingTypeSpec, CoolingUnitSpec, PduSpec, RackTypeSpec
from catalog.solver.storage_parts import StorageSystemSpec


@dataclass(frozen=True)
class CatalogSnapshot:
    systems: dict[str, SystemSpec] = field(default_factory=dict)
    switches: dict[str, SwitchSpec] = field(default_factory=dict)
    transceivers: dict[str, TransceiverSpec] = field(default_factory=dict)
    cables: dict[str, CableSpec] = field(default_factory=dict)
    rack_types: dict[str, RackTypeSpec] = field(default_factory=dict)
    pdus: dict[str, PduSpec] = field(default_factory=dict)
    cooling_types: dict[str, CoolingTypeSpec] = field(default_factory=dict)
    cooling_units: dict[str, CoolingUnitSpec] = field(default_factory=dict)
    storage_systems: dict[str, StorageSystemSpec] = field(default_factory=dict)
    servers: dict[str, ServerSpec] = field(default_factory=dict)
    inference_operating_points: dict[str, InferenceOperatingPointSpec] = field(default_factory=dict)
    """Published inference operating points by id (a table of figures, not parts one buys)."""

    def with_components(self, scenario) -> "CatalogSnapshot":
        """This catalog with the scenario's inline parts added (replacing any of the same slug);
        `scenario` is a ScenarioSpec (any object with its `components`)."""
        components = scenario.components
        if not components.systems and not components.switches:
            return self
        return replace(
            self,
            systems={**self.systems, **{part.slug: part for part in components.systems}},
            switches={**self.switches, **{part.slug: part for part in components.switches}},
        )

    def part(self, slug: str) -> PartSpec | None:
        for parts in vars(self).values():
            if slug in parts:
                return parts[slug]
        return None


def plan_catalog(plan: Any, catalog: CatalogSnapshot) -> CatalogSnapshot:
    """The catalog `plan` was made with: the one it carries (`Plan.catalog`), else `catalog` with
    its scenario's inline parts (a plan read back from its JSON carries none)."""
    carried = getattr(plan, "catalog", None)
    if carried is not None:
        return carried
    inputs = getattr(plan, "inputs", None)
    return catalog.with_components(inputs) if inputs is not None else catalog
