import pytest

from core.solver.part_counts import PartCount
from planner.solver.bom import bom_lines, bom_totals_by_category_usd, spares_quantity
from planner.solver.scenario import SparesSpec


@pytest.mark.parametrize(("installed", "percent", "spares"), [(100, 3, 3), (101, 3, 4), (10, 0, 0), (1, 2, 1), (50, 2, 1)])
def test_spares_round_up(installed, percent, spares):
    assert spares_quantity(installed, percent) == spares


def test_lines_add_up_group_by_category_and_take_quotes(catalog):
    counts = [PartCount("network", "qm9700", 40), PartCount("compute", "dgx-h100", 128),
              PartCount("network", "qm9700", 8), PartCount("cables", "cat6a-rj45", 0)]
    lines = bom_lines(counts, catalog, {"qm9700": 30_000.0}, SparesSpec(network=5))
    assert [(line.category, line.sku) for line in lines] == [("compute", "dgx-h100"), ("network", "qm9700")]
    compute, network = lines
    assert (compute.quantity, compute.spares, compute.price_source) == (128, 0, "catalog")
    assert compute.extended_price_usd == pytest.approx(128 * catalog.systems["dgx-h100"].price_usd)
    # 48 switches installed, 5 % spares = ceil(2.4) = 3: 51 at the quoted 30,000 USD
    assert (network.quantity, network.spares, network.unit_price_usd, network.price_source) == (51, 3, 30_000, "quote")
    assert network.extended_price_usd == 1_530_000
    totals = bom_totals_by_category_usd(lines)
    assert totals == {"compute": compute.extended_price_usd, "network": 1_530_000}
    assert all(line.extended_price_usd == line.quantity * line.unit_price_usd for line in lines)
