"""Figures of the fabrics of a plan: a picture of each fabric's structure (topology_plots)."""

from catalog.solver.snapshot import CatalogSnapshot
from fabric.solver.results import FabricResult
from fabric.topology_plots import topology_figure


def _part_name(slug: str, catalog: CatalogSnapshot | None) -> str:
    """The catalog name of the part `slug`, or the slug where the catalog has none."""
    part = catalog.part(slug) if catalog is not None else None
    return part.name if part is not None else slug


def _names(fabric: FabricResult, catalog: CatalogSnapshot | None) -> dict[str, str]:
    """Catalog names of the fabric's switch models, by slug."""
    return {tier.switch: _part_name(tier.switch, catalog) for tier in fabric.tiers if tier.switch}


def fabric_figures(
    fabrics: dict[str, FabricResult] | None, catalog: CatalogSnapshot | None, system: str | None
) -> dict[str, dict]:
    """The topology figure of each fabric of a plan that has switches, by fabric name.

    `fabrics` is the plan's (None where it has none), `catalog` the one it was planned with, for
    the names of the switches and systems, and `system` the slug of its compute system.
    """
    if fabrics is None:
        return {}
    node_name = _part_name(system, catalog) if system else "system"
    figures = {}
    for name, fabric in fabrics.items():
        figure = topology_figure(fabric, _names(fabric, catalog), node_name)
        if figure is not None:
            figures[name] = figure
    return figures
