"""Figures of the fabrics of a plan: a picture of each fabric's structure (topology_plots)."""

from catalog.solver.snapshot import CatalogSnapshot
from fabric.topology_plots import topology_figure


def _names(fabric: dict, catalog: CatalogSnapshot | None) -> dict[str, str]:
    """Catalog names of the fabric's switch models, by slug."""
    names = {}
    for tier in fabric.get("tiers") or ():
        slug = tier.get("switch") if isinstance(tier, dict) else None
        part = catalog.part(slug) if catalog is not None and slug else None
        if slug:
            names[slug] = getattr(part, "name", None) or slug
    return names


def fabric_figures(plan: dict, catalog: CatalogSnapshot | None = None) -> dict[str, dict]:
    fabrics = plan.get("fabrics")
    if not isinstance(fabrics, dict):
        return {}
    system = (plan.get("compute") or {}).get("system")
    part = catalog.part(system) if catalog is not None and system else None
    node_name = getattr(part, "name", None) or system or "system"
    figures = {}
    for name, fabric in fabrics.items():
        if isinstance(fabric, dict):
            figure = topology_figure(fabric, _names(fabric, catalog), node_name)
            if figure is not None:
                figures[name] = figure
    return figures
