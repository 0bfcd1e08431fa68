"""POST /api/v1/plan/: the plan for a good document, named errors for every kind of bad one."""

import json

import pytest

from planner.solver.documents import MAX_DOCUMENT_BYTES

pytestmark = pytest.mark.django_db

URL = "/api/v1/plan/"
H100_4SU = {
    "name": "DGX SuperPOD H100, 4 SU",
    "compute": {"system": "dgx-h100", "gpus": 1024},
    "racks": {"power_budget_kw": 41},
}


def post(api, body, content_type="application/json"):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return api.generic("POST", URL, data, content_type=content_type)


def test_plans_the_nvidia_ra_h100_four_unit_case(api):
    response = post(api, H100_4SU)
    assert response.status_code == 200
    plan = response.json()
    assert (plan["compute"]["nodes"], plan["compute"]["gpus"]) == (128, 1024)
    assert (plan["racks"]["compute"], plan["racks"]["nodes_per_rack"]) == (32, 4)
    assert plan["compute"]["it_kw"] == pytest.approx(1305.6)


def test_three_dgx_h100_per_rack_at_40_kw(api):
    plan = post(api, {**H100_4SU, "racks": {"power_budget_kw": 40}}).json()
    assert (plan["racks"]["nodes_per_rack"], plan["racks"]["compute"]) == (3, 43)


def test_yaml_body(api):
    response = post(api, "name: y\ncompute: {system: dgx-b200, nodes: 4}\n", "application/yaml")
    assert response.status_code == 200
    assert response.json()["compute"]["gpus"] == 32


@pytest.mark.parametrize(
    ("document", "path"),
    [
        ({"compute": {"system": "dgx-h100", "gpus": 8}}, "name"),
        ({**H100_4SU, "compute": {"system": "dgx-h100", "gpus": 8, "nodes": 1}}, "compute.gpus"),
        ({**H100_4SU, "compute": {"system": "dgx-h100"}}, "compute.gpus"),
        ({**H100_4SU, "compute": {"system": "dgx-h100", "gpus": 0}}, "compute.gpus"),
        ({**H100_4SU, "compute": {"system": "dgx-h100", "gpus": -1}}, "compute.gpus"),
        ({**H100_4SU, "compute": {"system": "dgx-h100", "gpus": 2.5}}, "compute.gpus"),
        ({**H100_4SU, "compute": {"system": "dgx-h100", "gpus": "1024"}}, "compute.gpus"),
        ({**H100_4SU, "compute": {"system": "dgx-h100", "gpus": 10**12}}, "compute.gpus"),
        ({**H100_4SU, "compute": {"system": "dgx-h999", "gpus": 8}}, "compute.system"),
        ({**H100_4SU, "racks": {"usable_u": "tall"}}, "racks.usable_u"),
        ({**H100_4SU, "racks": {"power_budget_kw": None}}, "racks.power_budget_kw"),
        ({**H100_4SU, "colour": "blue"}, "colour"),
        ({**H100_4SU, "fabrics": {"compute": {"switch": "qm9700", "topolgy": "fat_tree"}}}, "fabrics.compute.topolgy"),
        ({**H100_4SU, "prices": {"dgx-h100": "cheap"}}, "prices.dgx-h100"),
        ({**H100_4SU, "fabrics": {"compute": {"switch": "qm9700", "oversubscription": 0.2}}},
         "fabrics.compute.oversubscription.leaf"),
        ({**H100_4SU, "fabrics": {"compute": {"switch": "qm9700", "oversubscription": {"spine": 65}}}},
         "fabrics.compute.oversubscription.spine"),
        ({**H100_4SU, "fabrics": {"compute": {"switch": "qm9700", "inter_switch_gbps": 300}}},
         "fabrics.compute.inter_switch_gbps"),
        ([1, 2, 3], "document"),
        ("just text", "document"),
    ],
)
def test_bad_documents_get_400_naming_the_field(api, document, path):
    response = post(api, document)
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert path in errors and all(isinstance(message, str) for message in errors[path])


@pytest.mark.parametrize(
    ("racks", "path"),
    [
        ({"power_budget_kw": 5}, "racks.power_budget_kw"),
        ({"usable_u": 4}, "racks.usable_u"),
        ({"power_budget_kw": 100, "max_nodes_per_rack": 10, "cooling": "air", "usable_u": 42}, None),
    ],
)
def test_designs_no_rack_can_hold_get_422(api, racks, path):
    document = {**H100_4SU, "compute": {"system": "dgx-h100", "nodes": 4}, "racks": racks}
    response = post(api, document)
    if path is None:
        assert response.status_code == 200
    else:
        assert response.status_code == 422
        assert list(response.json()["errors"]) == [path]


def test_more_endpoints_than_the_asked_tiers_reach_get_422_saying_their_reach(api):
    # 257 DGX H100 = 2,056 links; two tiers of QM9700 reach 64 leaves, 2,048 links
    document = {**H100_4SU, "compute": {"system": "dgx-h100", "nodes": 257},
                "fabrics": {"compute": {"switch": "qm9700", "tiers": 2}}}
    response = post(api, document)
    assert response.status_code == 422
    [message] = response.json()["errors"]["fabrics.compute.tiers"]
    assert "reach at most 64 leaves (2,048 endpoint links" in message


def test_a_ratio_below_one_gives_leaves_more_bandwidth_up_than_down(api):
    """0.5:1 on QM9700: d = ceil(64 x 0.5 / 1.5) = 22 ports down, 42 up; a full leaf's 22 links
    want 44 uplinks at 0.5:1 and get its 42: 22 / 42 = 0.52:1, within 5 % of the asked."""
    document = {**H100_4SU, "fabrics": {"compute": {"switch": "qm9700", "oversubscription": 0.5}}}
    response = post(api, document)
    assert response.status_code == 200
    leaf = response.json()["fabrics"]["compute"]["tiers"][0]
    assert (leaf["down_links_per_switch"], leaf["up_links_per_switch"]) == (22, 42)
    assert leaf["oversubscription"] == pytest.approx(22 / 42, abs=1e-3)
    assert leaf["oversubscription_asked"] == 0.5


def test_a_cooling_type_that_cannot_carry_one_node_gets_422(api):
    document = {"name": "nvl72 on air", "compute": {"system": "gb200-nvl72", "nodes": 2},
                "racks": {"power_budget_kw": 150}}
    response = post(api, document)
    assert response.status_code == 422
    assert "direct_liquid" in response.json()["errors"]["racks.cooling"][0]


@pytest.mark.parametrize(
    ("body", "content_type", "message"),
    [
        ('{"name": "x", ', "application/json", "is not valid JSON"),
        ("name: [x\n", "application/yaml", "is not valid YAML"),
        (b"\xff\xfe", "application/json", "is not UTF-8 text"),
        (" " * (MAX_DOCUMENT_BYTES + 10), "application/json", "is larger than"),
    ],
)
def test_unreadable_bodies_get_400(api, body, content_type, message):
    response = post(api, body, content_type)
    assert response.status_code == 400
    assert message in response.json()["errors"]["document"][0]


def test_an_empty_body_names_the_required_keys(api):
    response = post(api, "", "application/json")
    assert response.status_code == 400
    assert response.json()["errors"] == {"name": ["is required"], "compute": ["is required"]}


def test_unsupported_media_type_and_method_use_the_error_format(api):
    response = post(api, "<scenario/>", "application/xml")
    assert response.status_code == 415
    assert "detail" in response.json()["errors"]
    assert api.get(URL).status_code == 405


@pytest.mark.parametrize(
    "odd",
    [None, True, 1e308, -0.0, "", [], {}, [{}], {"a": None}, "\u0000", 2**64, -(2**64), 10**400],
)
@pytest.mark.parametrize("where", ["name", "compute", "compute.gpus", "racks", "racks.cooling",
                                   "fabrics", "fabrics.compute", "components.systems", "prices"])
def test_no_odd_value_anywhere_gives_a_server_error(api, odd, where):
    document = json.loads(json.dumps(H100_4SU))
    section, _, key = where.partition(".")
    if key:
        document.setdefault(section, {})[key] = odd
    else:
        document[section] = odd
    response = post(api, document)
    assert response.status_code in (200, 400, 422)
    if response.status_code != 200:
        assert response.json()["errors"]
