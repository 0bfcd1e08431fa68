"""The editor's repeatable rows: posted rows into the document's lists (added, removed, in the
order of their indices), errors on the row's path, and the rows, pickers and help as shown."""

import json

import pytest
from django.http import QueryDict

from planner.solver.pipeline import plan_scenario
from planner.solver.scenario import read_scenario
from workspace.editor.form import ScenarioEditor

BASE = {"name": "rows", "compute": {"system": "dgx-h100", "gpus": 64}}


def post(document=BASE, **fields) -> QueryDict:
    """The editor's post: its hidden document and inputs by name (a list for repeated names)."""
    data = QueryDict(mutable=True)
    data["document"] = json.dumps(document)
    for name, value in fields.items():
        data.setlist(name, value if isinstance(value, list) else [value])
    return data


def tier(index: int, system: str = "", base: str = "", **inputs) -> dict:
    """A storage tier row's inputs as the page posts them (blank ones included)."""
    prefix = f"storage.tiers.{index}"
    row = {
        f"{prefix}.__base": base,
        f"{prefix}.system": system,
        f"{prefix}.name": "",
        f"{prefix}.serves": [""],
        f"{prefix}.holds": [""],
        f"{prefix}.retained_checkpoints": "2",
        f"{prefix}.other_tb": "0",
        f"{prefix}.systems": "",
        f"{prefix}.protection.scheme": "none",
        f"{prefix}.protection.copies": "2",
        f"{prefix}.protection.data_shards": "8",
        f"{prefix}.protection.parity_shards": "2",
    }
    for key, value in inputs.items():
        name = f"{prefix}.{key.replace('__', '.')}"
        row[name] = [""] + value if key in ("serves", "holds") else value
    return row


def read(data, catalog):
    errors: dict[str, list[str]] = {}
    return ScenarioEditor.document_from_post(data, catalog, errors), errors


def test_posted_tier_rows_become_the_storage_tiers(catalog):
    data = post(**{"storage.tiers": "rows", "storage.checkpoint_tb": "10"},
                **tier(0, "ddn-ai400x2-turbo", serves=["training_reads", "checkpoint_writes"]),
                **tier(1, "qlc-flash-2u", holds=["dataset"], other_tb="1,200", protection__scheme="erasure_coding"))
    document, errors = read(data, catalog)
    assert errors == {}
    assert document["storage"]["tiers"] == [
        {"system": "ddn-ai400x2-turbo", "serves": ["training_reads", "checkpoint_writes"]},
        {"system": "qlc-flash-2u", "holds": ["dataset"], "other_tb": 1200, "protection": {"scheme": "erasure_coding"}},
    ]
    assert read_scenario(document).storage.tiers[1].protection.scheme == "erasure_coding"


def test_rows_are_read_in_the_order_of_their_indices_whatever_the_gaps(catalog):
    """Rows 0, 2 and 10 (a row between was removed; 10 after 2, not after 1 as text would sort)
    are tiers 0, 1 and 2, and an error in row 10 is named by its place in the list."""
    data = post(**{"storage.tiers": "rows"},
                **tier(10, "object-hdd-4u60", holds=["checkpoints"], other_tb="lots"),
                **tier(0, "ddn-ai400x2-turbo", serves=["training_reads"]),
                **tier(2, "qlc-flash-2u", holds=["dataset"]))
    document, errors = read(data, catalog)
    assert [item["system"] for item in document["storage"]["tiers"]] == [
        "ddn-ai400x2-turbo", "qlc-flash-2u", "object-hdd-4u60"]
    assert list(errors) == ["storage.tiers[2].other_tb"]
    assert "“lots” is not a number" in errors["storage.tiers[2].other_tb"][0]


def test_a_row_is_paired_with_the_item_it_was_shown_from(catalog):
    """The page removed the first of two tiers in place: the one left is row 0 but came from
    item 1, which wrote retained_checkpoints out (2, the default): the key stays; a new row
    typing the default leaves it out."""
    base = {**BASE, "storage": {"tiers": [
        {"system": "ddn-ai400x2-turbo", "serves": ["training_reads"]},
        {"system": "object-hdd-4u60", "holds": ["checkpoints"], "retained_checkpoints": 2},
    ]}}
    data = post(base, **{"storage.tiers": "rows"}, **tier(0, "object-hdd-4u60", base="1", holds=["checkpoints"]),
                **tier(1, "qlc-flash-2u", holds=["dataset"]))
    document, _ = read(data, catalog)
    assert document["storage"]["tiers"] == [
        {"system": "object-hdd-4u60", "holds": ["checkpoints"], "retained_checkpoints": 2},
        {"system": "qlc-flash-2u", "holds": ["dataset"]},
    ]


def test_a_post_without_the_list_keeps_it_and_an_emptied_list_goes(catalog):
    base = {**BASE, "storage": {"tiers": [{"system": "ddn-ai400x2-turbo", "serves": ["training_reads"]}]}}
    document, _ = read(post(base), catalog)
    assert document["storage"] == base["storage"], "a form without rows (an older page) keeps them"
    document, _ = read(post(base, **{"storage.tiers": "rows"}), catalog)
    assert document["storage"]["tiers"] == [], "the document had tiers: now an empty list"
    document, _ = read(post(BASE, **{"storage.tiers": "rows", "compute.nics": "rows"}), catalog)
    assert "storage" not in document and "nics" not in document["compute"]


def test_the_add_and_remove_buttons_of_a_page_without_script(catalog):
    rows = {"storage.tiers": "rows", **tier(0, "ddn-ai400x2-turbo", serves=["training_reads"]),
            **tier(1, "qlc-flash-2u", holds=["dataset"])}
    document, _ = read(post(**rows, row_add="storage.tiers"), catalog)
    assert [item.get("system") for item in document["storage"]["tiers"]] == ["ddn-ai400x2-turbo", "qlc-flash-2u", None]
    assert ScenarioEditor.row_action(post(**rows, row_add="storage.tiers")) == "storage.tiers"
    document, _ = read(post(**rows, row_remove="storage.tiers.0"), catalog)
    assert [item["system"] for item in document["storage"]["tiers"]] == ["qlc-flash-2u"]
    assert ScenarioEditor.row_action(post(**rows)) == ""


def test_the_page_comes_back_with_the_cursor_in_the_row_added(catalog):
    document = {**BASE, "storage": {"tiers": [{"system": "ddn-ai400x2-turbo", "serves": ["training_reads"]}, {}]}}
    editor = ScenarioEditor(document, catalog, focus="storage.tiers")
    [tiers] = [item for item in editor.all_row_lists() if item.path == "storage.tiers"]
    assert [row.fields[0].autofocus for row in tiers.rows] == [False, True]
    editor = ScenarioEditor(document, catalog, focus="storage.tiers.1")
    assert [item.focus for item in editor.all_row_lists() if item.path == "storage.tiers"] == [True]


def test_nic_override_rows_and_an_inline_system_with_its_nics(catalog):
    data = post(**{
        "compute.nics": "rows",
        "compute.nics.0.__base": "", "compute.nics.0.role": "storage", "compute.nics.0.count": "2",
        "compute.nics.0.gbps": "200", "compute.nics.0.ports_per_cage": "1",
        "components.systems": "rows",
        "components.systems.0.__base": "", "components.systems.0.slug": "lab-8gpu",
        "components.systems.0.name": "Lab 8-GPU server", "components.systems.0.price_usd": "150,000",
        "components.systems.0.gpus": "8", "components.systems.0.power_kw": "6.5",
        "components.systems.0.rack_units": "4", "components.systems.0.weight_kg": "60",
        "components.systems.0.rack_scale": ["false"], "components.systems.0.nic_optics_in_power": ["false", "true"],
        "components.systems.0.compute_trays": "1",
        "components.systems.0.nics": "rows",
        "components.systems.0.nics.0.__base": "", "components.systems.0.nics.0.role": "compute",
        "components.systems.0.nics.0.count": "8", "components.systems.0.nics.0.gbps": "400",
        "components.systems.0.nics.0.ports_per_cage": "1",
        "components.systems.0.nics.3.__base": "", "components.systems.0.nics.3.role": "oob",
        "components.systems.0.nics.3.count": "1", "components.systems.0.nics.3.gbps": "1",
        "components.systems.0.nics.3.ports_per_cage": "1",
        "components.switches": "rows",
    })
    document, errors = read(data, catalog)
    assert errors == {}
    assert document["compute"]["nics"] == [{"role": "storage", "count": 2, "gbps": 200}]
    assert document["components"] == {"systems": [{
        "slug": "lab-8gpu", "name": "Lab 8-GPU server", "price_usd": 150000, "gpus": 8, "power_kw": 6.5,
        "rack_units": 4, "weight_kg": 60,
        "nics": [{"role": "compute", "count": 8, "gbps": 400}, {"role": "oob", "count": 1, "gbps": 1}],
    }]}
    document["compute"]["system"] = "lab-8gpu"
    plan = plan_scenario(document, catalog)
    assert plan.compute.system == "lab-8gpu"


def test_errors_of_a_row_go_to_its_input_and_the_banner_links_them(catalog):
    document = {**BASE, "storage": {"tiers": [
        {"system": "ddn-ai400x2-turbo", "serves": ["training_reads"]},
        {"system": "gone-from-catalog", "serves": ["training_reads"]},
    ]}, "compute": {**BASE["compute"], "nics": [{"role": "storage", "count": 3, "gbps": 200, "ports_per_cage": 2}]}}
    errors = {
        "storage.tiers[1].system": ["no storage system 'gone-from-catalog' in the catalog"],
        "storage.tiers[1].serves": ["only one tier may serve training_reads; tier 0 already does"],
        "compute.nics[0].ports_per_cage": ["must divide the 3 storage ports evenly"],
        "storage.tiers[1]": ["must be a mapping of keys to values"],
    }
    editor = ScenarioEditor(document, catalog, errors)
    fields = {item.path: item for item in editor.all_fields()}
    assert fields["storage.tiers.1.system"].errors == ["no storage system 'gone-from-catalog' in the catalog"]
    assert fields["storage.tiers.1.serves"].errors == ["only one tier may serve training_reads; tier 0 already does"]
    assert fields["storage.tiers.0.system"].errors == []
    [row] = [row for row in editor.all_rows() if row.path == "storage.tiers.1"]
    assert row.errors == ["must be a mapping of keys to values"]
    links = {(link.where, link.anchor) for link in editor.error_summary()}
    assert ("Storage › Storage tiers › Storage tier 2 › Storage system", "f-storage-tiers-1-system") in links
    assert ("Storage › Storage tiers › Storage tier 2", "row-storage-tiers-1") in links
    assert ("Compute › NIC overrides › NIC override 1 › Ports per cage", "f-compute-nics-0-ports-per-cage") in links
    assert editor.has_errors
    containers = {container_id for container_id, _, _ in editor.error_containers()}
    assert {"err-storage-tiers-1-system", "err-row-storage-tiers-1", "err-rows-storage-tiers"} <= containers
    assert {section.path for section in editor.sections if section.open} >= {"storage", "compute"}


def test_rows_show_pickers_checkboxes_and_defaults(catalog):
    document = {**BASE, "storage": {"tiers": [
        {"system": "ddn-ai400x2-turbo", "serves": ["checkpoint_writes"], "protection": "replication"}]}}
    editor = ScenarioEditor(document, catalog)
    fields = {item.path: item for item in editor.all_fields()}
    system = fields["storage.tiers.0.system"]
    assert system.label == "Storage system" and system.value == "ddn-ai400x2-turbo"
    assert system.help_text == "The storage system (from the catalog)."
    assert {value for value, _ in system.choices} == {""} | set(catalog.storage_systems)
    assert fields["storage.tiers.0.serves"].choices == [
        ("training_reads", "Training reads"), ("checkpoint_writes", "Checkpoint writes")]
    assert fields["storage.tiers.0.serves"].selected == ["checkpoint_writes"]
    assert fields["storage.tiers.0.holds"].choices == [("dataset", "Dataset"), ("checkpoints", "Checkpoints")]
    assert fields["storage.tiers.0.protection.scheme"].value == "replication", "the shorthand, written out"
    assert fields["storage.tiers.0.retained_checkpoints"].value == "2"
    [tiers] = [item for item in editor.all_row_lists() if item.path == "storage.tiers"]
    template = {item.path: item for item in tiers.template.fields}
    assert template["storage.tiers.NEWROW0.system"].value == "" and tiers.template.base == ""
    assert tiers.add_label == "Add a storage tier"


def test_nic_roles_read_as_architects_say_them(catalog):
    editor = ScenarioEditor({**BASE, "compute": {**BASE["compute"], "nics": [{"role": "inband", "count": 2, "gbps": 100}]}},
                            catalog)
    role = next(item for item in editor.all_fields() if item.path == "compute.nics.0.role")
    assert [text for _, text in role.choices] == [
        "GPU back-end (compute)", "Storage", "In-band (front-end)", "Out-of-band"]
    assert role.value == "inband"


def test_an_inline_part_is_offered_by_its_name_in_the_pickers(catalog):
    document = {**BASE, "components": {
        "systems": [{"slug": "lab-8gpu", "name": "Lab 8-GPU server", "gpus": 8, "power_kw": 6.5, "rack_units": 4}],
        "switches": [{"slug": "big-ndr", "name": "128-port NDR", "ports": 128, "port_gbps": 400, "power_w": 1500,
                      "rack_units": 2, "technology": "infiniband"}],
    }, "fabrics": {"compute": {"switch": "big-ndr"}}}
    editor = ScenarioEditor(document, catalog)
    fields = {item.path: item for item in editor.all_fields()}
    assert ("lab-8gpu", "Lab 8-GPU server — 8 GPUs, 6.5 kW, 4U") in fields["compute.system"].choices
    assert ("big-ndr", "128-port NDR — 128 × 400G infiniband, 1,500 W, 2U") in fields["fabrics.compute.switch"].choices
    assert fields["fabrics.compute.switch"].value == "big-ndr"


def test_every_slug_is_asked_with_a_picker_of_the_parts_that_fit(catalog):
    editor = ScenarioEditor(BASE, catalog)
    fields = {item.path: item for item in editor.all_fields()}
    manager = fields["fabrics.compute.fabric_manager"]
    assert manager.widget == "select"
    assert [value for value, _ in manager.choices] == [
        slug for slug, server in sorted(catalog.servers.items()) if server.role == "fabric_manager"]
    head_nodes = [value for value, _ in fields["racks.management_server"].choices]
    assert head_nodes and all(catalog.servers[slug].role == "management_server" for slug in head_nodes)
    cdu = fields["facility.cdu"]
    assert cdu.choices[0] == ("auto", "Auto") and cdu.value == "auto"
    assert {catalog.cooling_units[slug].kind for slug, _ in cdu.choices[1:]} == {"cdu"}
    slug_help = [item.path for item in editor.all_fields() if "slug" in item.help_text.lower()]
    assert slug_help == [], "the form says 'from the catalog', the reference keeps the word slug"


@pytest.mark.parametrize(("typed", "expected"), [("1, 2", [1, 2]), ("1 2 4", [1, 2, 4]), ("1;2", [1, 2]), ("1", None)])
def test_a_switch_split_is_typed_as_whole_numbers(catalog, typed, expected):
    """1 alone is the default: left out of the document."""
    data = post(**{"components.switches": "rows", "components.switches.0.__base": "",
                   "components.switches.0.split": typed})
    document, _ = read(data, catalog)
    assert document["components"]["switches"][0].get("split") == expected


def test_a_split_that_is_not_whole_numbers_is_named_by_its_path(catalog):
    data = post(**{"components.switches": "rows", "components.switches.0.__base": "",
                   "components.switches.0.split": "1, two"})
    _, errors = read(data, catalog)
    assert list(errors) == ["components.switches[0].split"]


def test_a_document_with_every_list_round_trips_through_the_form(catalog):
    """Shown in the form and posted back as the page would, the document reads to the same spec."""
    document = {
        **BASE,
        "compute": {**BASE["compute"], "nics": [{"role": "storage", "count": 2, "gbps": 200}]},
        "storage": {"checkpoint_tb": 12, "tiers": [
            {"system": "ddn-ai400x2-turbo", "name": "hot", "serves": ["training_reads", "checkpoint_writes"],
             "protection": {"scheme": "replication", "copies": 3}},
            {"system": "object-hdd-4u60", "holds": ["checkpoints"], "retained_checkpoints": 5, "systems": 4},
        ]},
        "components": {"switches": [{"slug": "big-ndr", "name": "128-port NDR", "ports": 128, "port_gbps": 400,
                                     "split": [1, 2], "power_w": 1500, "rack_units": 2, "price_usd": 80000}]},
    }
    editor = ScenarioEditor(document, catalog)
    data = post(document)
    for item in editor.all_row_lists():
        data[item.path] = "rows"
    for row in editor.all_rows():
        data[f"{row.path}.__base"] = row.base
    for section in editor.sections:
        if section.optional and section.included:
            data[section.include_name] = "on"
    for item in editor.all_fields():
        if item.widget == "rows":
            data.setlist(f"{item.path}.key", [row.key for row in item.rows])
            data.setlist(f"{item.path}.value", [row.value for row in item.rows])
        elif item.widget == "checkbox":
            data.setlist(item.path, ["false"] + (["true"] if item.checked else []))
        elif item.widget == "checkboxes":
            data.setlist(item.path, [""] + item.selected)
        else:
            data[item.path] = item.value
    posted, errors = read(data, catalog)
    assert errors == {}
    assert read_scenario(posted) == read_scenario(document)
