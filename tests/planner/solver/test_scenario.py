"""The scenario document: the defaults the format spec documents, and every kind of bad input."""

import pytest

from core.solver.errors import ScenarioError
from fabric.solver.specs import OversubscriptionSpec
from planner.solver.references import check_references
from planner.solver.scenario import read_scenario

MINIMAL = {"name": "n", "compute": {"system": "dgx-h100", "gpus": 1024}}


def errors_of(document, catalog=None) -> dict[str, list[str]]:
    with pytest.raises(ScenarioError) as caught:
        scenario = read_scenario(document)
        if catalog is not None:
            check_references(scenario, catalog.with_components(scenario))
    return caught.value.as_dict()


def with_(section: str, **values) -> dict:
    return {**MINIMAL, section: {**MINIMAL.get(section, {}), **values}}


def test_documented_defaults():
    scenario = read_scenario(MINIMAL)
    assert scenario.compute.nodes is None and scenario.compute.spare_nodes == 0
    racks = scenario.racks
    assert (racks.power_budget_kw, racks.usable_u, racks.max_nodes_per_rack) == (41.0, 42, None)
    assert (racks.cooling, racks.racks_per_row) == ("air", 16)
    assert scenario.facility.pue == "auto" and scenario.facility.electricity_usd_per_kwh == 0.08
    assert (scenario.finance.years, scenario.finance.discount_rate) == (5, 0.08)
    assert scenario.fabrics.compute is None and scenario.prices == {}


def test_fabric_defaults_and_the_oversubscription_shorthand():
    scenario = read_scenario({**MINIMAL, "fabrics": {"compute": {"switch": "qm9700", "oversubscription": 2}}})
    fabric = scenario.fabrics.compute
    assert (fabric.topology, fabric.leaf_placement, fabric.tiers, fabric.planes) == (
        "fat_tree", "rail_optimized", "auto", 1)
    assert fabric.oversubscription == OversubscriptionSpec(leaf=2.0, spine=1.0)
    mapping = read_scenario({**MINIMAL, "fabrics": {"compute": {"switch": "qm9700", "oversubscription": {"leaf": 1, "spine": 7}}}})
    assert mapping.fabrics.compute.oversubscription == OversubscriptionSpec(leaf=1.0, spine=7.0)


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ({"compute": MINIMAL["compute"]}, {"name": ["is required"]}),
        (with_("compute", nodes=128), {"compute.gpus": ["give either gpus or nodes, not both"]}),
        ({"name": "n", "compute": {"system": "dgx-h100"}}, {"compute.gpus": ["give either gpus or nodes"]}),
        (with_("compute", gpus=0), {"compute.gpus": ["must be a positive whole number"]}),
        (with_("compute", gpus=-8), {"compute.gpus": ["must be a positive whole number"]}),
        (with_("compute", gpus=1023.5), {"compute.gpus": ["must be a positive whole number"]}),
        (with_("compute", gpus="many"), {"compute.gpus": ["must be a positive whole number"]}),
        (with_("compute", gpus=10**12), {"compute.gpus": ["must be at most 10,000,000"]}),
        (with_("compute", spare_nodes=-1), {"compute.spare_nodes": ["must be a whole number, zero or more"]}),
        (with_("racks", power_budget_kw="41"), {"racks.power_budget_kw": ["must be a number greater than 0 kW"]}),
        (with_("racks", usable_u=[42]), {"racks.usable_u": ["must be a positive whole number"]}),
        (with_("racks", cooling="water"), {"racks.cooling": ["must be one of: air, rear_door, direct_liquid, immersion"]}),
        ({**MINIMAL, "compute": "dgx-h100"}, {"compute": ["must be a mapping of keys to values"]}),
        ({**MINIMAL, "facility": {"pue": 0.9}}, {"facility.pue": ["must be auto or a number of at least 1"]}),
        ({**MINIMAL, "finance": {"discount_rate": -1}}, {"finance.discount_rate": ["must be a number greater than -1"]}),
        ({**MINIMAL, "finance": {"years": 0}}, {"finance.years": ["must be a positive whole number"]}),
        ({**MINIMAL, "fabrics": {"compute": {"switch": "qm9700", "planes": 0}}}, {"fabrics.compute.planes": ["must be a positive whole number"]}),
        ({**MINIMAL, "fabrics": {"compute": {"switch": "qm9700", "oversubscription": 0.2}}},
         {"fabrics.compute.oversubscription.leaf": ["must be a number of at least 0.25"]}),
        ({**MINIMAL, "storage": []}, {"storage": ["must be a mapping of keys to values"]}),
    ],
)
def test_bad_input_is_named_by_its_dotted_path(document, expected):
    assert errors_of(document) == expected


def test_unknown_top_level_key_suggests_the_near_one():
    assert errors_of({**MINIMAL, "rack": {}}) == {
        "rack": ["unknown key; did you mean 'racks'? expected one of: name, compute, pools, workload, "
                 "inference, racks, fabrics, storage, reliability, facility, finance, components, prices, phases, growth, salvage_share"]
    }


def test_unknown_slugs_are_named_with_near_matches(catalog):
    document = {
        **MINIMAL,
        "compute": {"system": "dgx-h1000", "gpus": 8},
        "fabrics": {"compute": {"switch": "qm9701"}},
        "prices": {"no-such-part": 1.0},
    }
    errors = errors_of(document, catalog)
    assert errors["compute.system"][0].startswith("no system 'dgx-h1000' in the catalog")
    assert "dgx-h100" in errors["compute.system"][0]
    assert "qm9700" in errors["fabrics.compute.switch"][0]
    assert errors["prices.no-such-part"] == ["no part has the slug 'no-such-part'"]


def test_inline_components_are_checked_like_catalog_parts():
    document = {
        **MINIMAL,
        "components": {"systems": [{"slug": "Host 1", "name": "h", "gpus": 0, "power_kw": 0.3,
                                    "rack_units": 1, "weight_kg": 15, "price_usd": 4000,
                                    "nics": [{"role": "gpu", "count": 1, "gbps": 1}]}]},
    }
    errors = errors_of(document)
    assert set(errors) == {
        "components.systems[0].gpus",
        "components.systems[0].nics[0].role",
    }
    document["components"]["systems"][0].update(gpus=1, nics=[{"role": "compute", "count": 1, "gbps": 1}])
    assert errors_of(document) == {
        "components.systems[0].slug": ["must use lowercase letters, digits, hyphens and underscores only"]
    }


def test_inline_components_join_the_catalog(catalog):
    host = {"slug": "host-1g", "name": "1 GbE host", "gpus": 1, "power_kw": 0.3, "rack_units": 1,
            "weight_kg": 15, "price_usd": 4000, "nics": [{"role": "compute", "count": 1, "gbps": 1}]}
    scenario = read_scenario({**MINIMAL, "compute": {"system": "host-1g", "gpus": 4},
                              "components": {"systems": [host]}, "prices": {"host-1g": 3500}})
    merged = catalog.with_components(scenario)
    check_references(scenario, merged)
    assert merged.systems["host-1g"].nic("compute").gbps == 1.0
    assert "host-1g" not in catalog.systems


def test_compute_trays_and_ports_per_cage_must_divide_the_compute_ports():
    """An NVL72 rack has 18 trays of 4 compute NICs; a DGX H100 has 8 NIC ports in 4 twin-port
    cages. A count that does not share out evenly is refused, naming the field."""
    system = {"slug": "rack-1", "name": "r", "gpus": 72, "power_kw": 132, "rack_units": 48,
              "weight_kg": 1360, "price_usd": 1, "compute_trays": 18,
              "nics": [{"role": "compute", "count": 70, "gbps": 400, "ports_per_cage": 4}]}
    document = {**MINIMAL, "components": {"systems": [system]}}
    errors = errors_of(document)
    assert errors == {
        "components.systems[0].nics[0].ports_per_cage": ["must divide the 70 compute ports evenly"]
    }
    system["nics"][0].update(count=70, ports_per_cage=2)
    assert errors_of(document) == {
        "components.systems[0].compute_trays": [
            "must divide the 70 compute NIC ports evenly (18 trays)"
        ]
    }
    system["nics"][0]["count"] = 72
    scenario = read_scenario(document)
    (parsed,) = scenario.components.systems
    compute = parsed.nic("compute")
    assert (parsed.compute_trays, compute.ports_per_cage, parsed.nic_optics_in_power) == (18, 2, True)
