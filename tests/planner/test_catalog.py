"""The seeded catalog: every row valid and sourced, the named slugs present, admin edits checked."""

import pytest
from django.core.exceptions import ValidationError

from fabric.models import Switch
from planner.catalog import catalog_load, catalog_snapshot, catalog_sources
from planner.models import System

REQUIRED_SLUGS = {
    "systems": {"dgx-h100", "dgx-h200", "dgx-b200", "dgx-b300", "gb200-nvl72", "hgx-h100", "mi300x-8"},
    "switches": {"qm9700", "q3400", "sn5600", "sn2201", "th5-64x800"},
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
