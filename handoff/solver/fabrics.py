"""Which of the plan's fabrics are InfiniBand (their switches' technology in the catalog)."""

from typing import TYPE_CHECKING, Any

from catalog.solver.snapshot import plan_catalog

if TYPE_CHECKING:
    from catalog.solver.snapshot import CatalogSnapshot

INFINIBAND = "infiniband"


def fabric_technologies(plan: Any, catalog: "CatalogSnapshot") -> dict[str, str]:
    """Fabric name -> technology of its switches (`ethernet`, `infiniband`)."""
    catalog = plan_catalog(plan, catalog)
    technologies = {}
    for name, fabric in (plan.fabrics or {}).items():
        switch = catalog.switches.get(fabric.switch)
        technologies[name] = getattr(switch, "technology", "ethernet") if switch is not None else "ethernet"
    return technologies


def infiniband_fabrics(plan: Any, catalog: "CatalogSnapshot") -> list[str]:
    return [name for name, technology in fabric_technologies(plan, catalog).items() if technology == INFINIBAND]
