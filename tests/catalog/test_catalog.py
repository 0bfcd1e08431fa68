"""The seeded catalog: every row valid and sourced, the named slugs present, admin edits checked."""

from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from catalog.edits import catalog_load
from catalog.rows import catalog_snapshot, catalog_sources
from fabric.models import Switch
from planner.models import System

REQUIRED_SLUGS = {
    "systems": {
        "dgx-h100", "dgx-h200", "dgx-b200", "dgx-b300", "gb200-nvl72", "hgx-h100", "mi300x-8",
        "hgx-a100", "hgx-h800", "hgx-h20", "l40s-8",
    },
    "switches": {"qm9700", "q3400", "sn5600", "sn2201", "th5-64x800", "sn4600c"},
    "transceivers": {"qsfp56-200g-sr4", "qsfp28-100g-sr4", "sfp28-25g-sr", "sfp-plus-10g-sr"},
    "cables": {
        "aoc-100g-qsfp28", "aoc-200g-qsfp56", "aoc-400g", "dac-100g-qsfp28", "dac-200g-qsfp56",
    },
    "cooling_types": {"air", "rear_door", "direct_liquid", "immersion"},
}


@pytest.mark.parametrize(("field", "slugs"), REQUIRED_SLUGS.items())
def test_the_slugs_named_in_the_format_spec_exist(catalog, field, slugs):
    assert slugs <= set(getattr(catalog, field))


def test_every_part_says_where_its_figures_come_from(catalog):
    for parts in vars(catalog).values():
        assert parts
        for part in parts.values():
            assert part.source_url.startswith("http"), part.slug
            assert part.source_date, part.slug
            assert part.confidence in ("datasheet", "analysis", "estimate")


def test_published_system_figures(catalog):
    """DGX H100: 8U, 10.2 kW; DGX B200: 10U, 14.3 kW, 142.4 kg (NVIDIA user guides)."""
    h100, b200 = catalog.systems["dgx-h100"], catalog.systems["dgx-b200"]
    assert (h100.rack_units, h100.power_kw, h100.gpus) == (8, 10.2, 8)
    assert h100.nic("compute").count == 8 and h100.nic("compute").gbps == 400
    assert (b200.rack_units, b200.power_kw, b200.weight_kg) == (10, 14.3, 142.4)
    qm9700 = catalog.switches["qm9700"]
    assert (qm9700.ports, qm9700.port_gbps, qm9700.ports_per_cage) == (64, 400, 2)


def test_compute_trays_and_nic_cages_as_the_vendors_build_them(catalog):
    """GB200/GB300 NVL72: 18 compute trays of 4 NICs. DGX H100/H200/B200: 4 OSFP cages serve the
    8 compute ConnectX-7 (2 ports a cage). DGX B300: 8 OSFP ports for 8 ConnectX-8 (1 a cage)."""
    systems = catalog.systems
    for slug in ("gb200-nvl72", "gb300-nvl72"):
        trays = systems[slug].compute_trays
        assert (trays, systems[slug].nic("compute").count // trays) == (18, 4)
    for slug in ("dgx-h100", "dgx-h200", "dgx-b200"):
        compute = systems[slug].nic("compute")
        assert (compute.count, compute.ports_per_cage) == (8, 2)
    assert systems["dgx-b300"].nic("compute").ports_per_cage == 1
    assert all(system.compute_trays == 1 for system in systems.values() if not system.rack_scale)
    assert all(system.nic_optics_in_power for system in systems.values())
    assert "nic_optics_in_power" in systems["dgx-h100"].notes


def test_the_spine_and_in_band_switches_split_as_documented(catalog):
    """SN5600: 64 x 800G, 128 x 400G or 256 x 200G (user manual); SN4600C 64 x 100G in 2U; the
    modular spine is a chassis."""
    switches = catalog.switches
    assert switches["sn5600"].split == (1, 2, 4)
    sn4600c = switches["sn4600c"]
    assert (sn4600c.ports, sn4600c.port_gbps, sn4600c.rack_units) == (64, 100, 2)
    assert switches["arista-7808r3"].modular and switches["arista-7808r3"].port_gbps == 400


@pytest.mark.django_db
def test_the_database_holds_the_seed_files(catalog):
    assert catalog_snapshot() == catalog


@pytest.mark.django_db
def test_loading_again_updates_by_slug_and_keeps_hand_added_parts():
    System.objects.filter(slug="dgx-h100").update(power_kw=1.0)
    extra = System.objects.get(slug="hgx-h100")
    extra.pk, extra.slug = None, "my-server"
    extra.save()
    catalog_load()
    assert System.objects.get(slug="dgx-h100").power_kw == 10.2
    assert System.objects.filter(slug="my-server").exists()


@pytest.mark.django_db
def test_the_loadcatalog_command_loads_every_seed_row(catalog):
    out = StringIO()
    call_command("loadcatalog", stdout=out)
    assert f"planner.System: {len(catalog.systems)} parts" in out.getvalue()
    assert f"fabric.Transceiver: {len(catalog.transceivers)} parts" in out.getvalue()
    assert System.objects.filter(slug__in=["hgx-a100", "a800-8", "hgx-h800", "l40s-8"]).count() == 4


@pytest.mark.django_db
def test_a_system_keeps_its_trays_and_nic_cages_through_the_database():
    """NICs are stored as JSON: ports_per_cage must come back from the row as it went in."""
    gb200, dgx = System.objects.get(slug="gb200-nvl72"), System.objects.get(slug="dgx-h100")
    assert (gb200.compute_trays, gb200.nic_optics_in_power) == (18, True)
    assert {"role": "compute", "count": 8, "gbps": 400, "ports_per_cage": 2} in dgx.nics
    assert dgx.as_spec().nic("compute").ports_per_cage == 2


@pytest.mark.django_db
def test_an_admin_edit_of_trays_or_cages_is_checked():
    system = System.objects.get(slug="gb200-nvl72")
    system.compute_trays = 5
    with pytest.raises(ValidationError) as caught:
        system.full_clean()
    assert caught.value.message_dict == {
        "compute_trays": ["compute_trays: must divide the 72 compute NIC ports evenly (5 trays)"]
    }
    system = System.objects.get(slug="dgx-h100")
    system.nics[0]["ports_per_cage"] = 3
    with pytest.raises(ValidationError) as caught:
        system.full_clean()
    assert caught.value.message_dict == {
        "nics": ["nics[0].ports_per_cage: must divide the 8 compute ports evenly"]
    }


@pytest.mark.django_db
def test_an_admin_edit_is_checked_by_the_part_dataclass():
    switch = Switch.objects.get(slug="qm9700")
    switch.ports = 0
    with pytest.raises(ValidationError) as caught:
        switch.full_clean()
    assert caught.value.message_dict == {"ports": ["ports: must be a positive whole number"]}
    switch.ports, switch.split = 64, [2]
    with pytest.raises(ValidationError) as caught:
        switch.full_clean()
    assert caught.value.message_dict == {"split": ["split: must list whole numbers from 1 to 8, including 1"]}


def test_every_app_owns_its_catalog_files():
    owners = {source.model.split(".")[0] for source in catalog_sources()}
    assert owners == {"planner", "fabric", "power", "storage"}
    assert all(source.file().exists() for source in catalog_sources())


def test_the_h20_server_plans_with_its_gpu_figures(catalog):
    """H20 (press-reported 2023-11): 96 GB, 4.0 TB/s, 148 dense BF16; server 10.2 - 8 x 0.3 kW."""
    from planner.solver.pipeline import plan_scenario

    h20 = catalog.systems["hgx-h20"]
    assert (h20.gpu_memory_gb, h20.hbm_tb_per_s, h20.dense_bf16_tflops_per_gpu) == (96, 4.0, 148)
    assert h20.power_kw == pytest.approx(10.2 - 8 * (0.700 - 0.400))
    scenario = {
        "name": "hgx-h20 check", "compute": {"system": "hgx-h20", "nodes": 16},
        "racks": {"power_budget_kw": 41, "usable_u": 42, "cooling": "air"},
        "fabrics": {"compute": {"switch": "qm9700", "topology": "fat_tree", "tiers": 2}},
    }
    plan = plan_scenario(scenario, catalog).to_dict()
    # per rack: floor(41 kW / 7.8 kW) = 5 and floor(42U / 8U) = 5 servers; 16 nodes = 5 + 5 + 5 + 1
    racks = plan["racks"]
    assert (racks["nodes_per_rack"], racks["compute"], racks["nodes_in_last_rack"]) == (5, 4, 1)
    assert racks["compute_rack_it_kw"] == pytest.approx(5 * 7.8)


def test_every_catalog_system_plans(catalog):
    """Each system in a rack of its own size: two systems (one rack-scale system), liquid-cooled
    racks with the budget of a whole system and a fifth to spare, and a compute fabric."""
    from planner.solver.pipeline import plan_scenario

    for slug, system in catalog.systems.items():
        document = {
            "name": slug,
            "compute": {"system": slug, "nodes": 1 if system.rack_scale else 2},
            "racks": {"power_budget_kw": round(1.2 * system.power_kw, 1) + 1, "cooling": "direct_liquid"},
        }
        plan = plan_scenario(document, catalog)
        assert plan.compute.gpus == system.gpus * document["compute"]["nodes"], slug
