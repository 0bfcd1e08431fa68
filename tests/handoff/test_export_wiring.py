"""The hand-off formats from the API (`export.<format>`), `manage.py plan --format` and the
dashboard's export menu; bad input is a 400 (or exit status 2) naming the field."""

import io
import zipfile

import pytest
import yaml
from django.urls import reverse
from openpyxl import load_workbook

from jobs.models import Job
from jobs.services import job_result_file
from jobs.worker import Worker
from planner.services import scenario_create
from tests.commands import run_command
from tests.handoff.conftest import EXAMPLES, example_document

pytestmark = pytest.mark.django_db

ETHERNET_ONLY = {"name": "Ethernet pod", "compute": {"system": "hgx-h100", "nodes": 32},
                 "fabrics": {"compute": {"switch": "sn5600"}}}


@pytest.fixture
def scenario_4su(user):
    return scenario_create(owner=user, document=example_document("dgx-h100-4su.yaml"))


@pytest.mark.parametrize(("export_format", "content_type", "filename"), [
    ("slurm-topology", "text/plain; charset=utf-8", "dgx-h100-superpod-4-scalable-units.topology.conf"),
    ("slurm-yaml", "application/yaml; charset=utf-8", "dgx-h100-superpod-4-scalable-units.topology.yaml"),
    ("ufm-p2p", "application/zip", "dgx-h100-superpod-4-scalable-units.ufm-p2p.zip"),
    ("netbox", "application/zip", "dgx-h100-superpod-4-scalable-units.netbox.zip"),
])
def test_a_saved_scenarios_hand_off_files_download_from_the_api(user_api, scenario_4su, export_format,
                                                                 content_type, filename):
    response = user_api.get(f"/api/v1/scenarios/{scenario_4su.pk}/export.{export_format}")
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == content_type
    assert response["Content-Disposition"] == f'attachment; filename="{filename}"'
    if export_format == "slurm-topology":
        assert "SwitchName=su01 Nodes=gpu[0001-0032]" in response.content.decode()
    elif export_format == "slurm-yaml":
        assert yaml.safe_load(response.content)[0]["topology"] == "tree"
    elif export_format == "ufm-p2p":
        archive = zipfile.ZipFile(io.BytesIO(response.content))
        assert sorted(archive.namelist()) == ["README.txt", "hca_mapping.csv", "p2p.xlsx"]
        assert load_workbook(io.BytesIO(archive.read("p2p.xlsx"))).sheetnames == ["compute"]
    else:
        assert "12-cables.csv" in zipfile.ZipFile(io.BytesIO(response.content)).namelist()


def test_the_device_prefix_names_the_netbox_devices_and_a_bad_one_is_400(api):
    document = example_document("dgx-h100-4su.yaml")
    response = api.post("/api/v1/plan/export.netbox?device_prefix=dc2", document, format="json")
    assert response.status_code == 200
    devices = zipfile.ZipFile(io.BytesIO(response.content)).read("10-devices.csv").decode().splitlines()
    assert devices[1].startswith("dc2-r001-node-01,")
    refused = api.post("/api/v1/plan/export.netbox?device_prefix=%3Dcmd", document, format="json")
    assert refused.status_code == 400
    assert "device_prefix" in refused.content.decode()


def test_the_node_pattern_names_the_nodes_of_a_posted_document(api):
    document = example_document("dgx-h100-4su.yaml")
    response = api.post("/api/v1/plan/export.slurm-topology?node_pattern=dgx-h100-%23%23%23", document, format="json")
    assert response.status_code == 200
    assert "SwitchName=su04 Nodes=dgx-h100-[097-128]" in response.content.decode()


def test_a_bad_node_pattern_is_400_naming_node_pattern(api):
    document = example_document("dgx-h100-4su.yaml")
    response = api.post("/api/v1/plan/export.slurm-topology?node_pattern=gpu%23%23", document, format="json")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["node_pattern"]


def test_ufm_of_an_ethernet_only_plan_is_400_naming_format(api):
    response = api.post("/api/v1/plan/export.ufm-p2p", ETHERNET_ONLY, format="json")
    assert response.status_code == 400
    [message] = response.json()["errors"]["format"]
    assert "no InfiniBand fabric" in message and "compute (ethernet)" in message


def test_blocks_of_a_system_without_nvlink_domains_are_400_naming_format(api):
    response = api.post("/api/v1/plan/export.slurm-block", ETHERNET_ONLY, format="json")
    assert response.status_code == 400 and "format" in response.json()["errors"]


def test_an_unknown_format_lists_the_hand_off_formats(api):
    response = api.post("/api/v1/plan/export.topology", ETHERNET_ONLY, format="json")
    assert response.status_code == 400
    [message] = response.json()["errors"]["format"]
    assert all(name in message for name in ("slurm-topology", "slurm-block", "slurm-yaml", "ufm-p2p", "netbox"))


def test_a_heavy_netbox_bundle_is_a_job_whose_file_is_the_bundle(user_api, user, scenario_4su, settings, tmp_path):
    settings.JOBS_DIR = tmp_path / "jobs"
    settings.HEAVY_EXPORT_CABLES = 0
    response = user_api.get(f"/api/v1/scenarios/{scenario_4su.pk}/export.netbox?node_pattern=n%23%23%23%23")
    assert response.status_code == 202
    job = Job.objects.get()
    assert job.parameters["node_pattern"] == "n####"
    assert Worker().run_once() == job
    job.refresh_from_db()
    assert job.status == "done", job.error
    archive = zipfile.ZipFile(job_result_file(job))
    devices = archive.read("10-devices.csv").decode().splitlines()
    assert devices[1].endswith(",n0001")
    # Slurm's files do not grow with the cables: they stay while-you-wait.
    assert user_api.get(f"/api/v1/scenarios/{scenario_4su.pk}/export.slurm-topology").status_code == 200


def test_plan_command_prints_the_topology_with_the_stated_pattern(capsys):
    code, out, _ = run_command(capsys, "plan", EXAMPLES / "dgx-h100-4su.yaml", "--format", "slurm-topology",
                            "--node-pattern", "dgx###")
    assert code == 0 and "SwitchName=su01 Nodes=dgx[001-032]" in out


def test_plan_command_writes_the_binary_formats_to_a_file_only(capsys, tmp_path):
    code, _, err = run_command(capsys, "plan", EXAMPLES / "dgx-h100-4su.yaml", "--format", "netbox")
    assert code == 2 and err.startswith("--output:")
    target = tmp_path / "bundle.zip"
    code, _, _ = run_command(capsys, "plan", EXAMPLES / "dgx-h100-4su.yaml", "--format", "netbox", "--output", target)
    assert code == 0 and zipfile.is_zipfile(target)


def test_plan_command_names_a_bad_pattern_and_exits_2(capsys):
    code, out, err = run_command(capsys, "plan", EXAMPLES / "dgx-h100-4su.yaml", "--format", "slurm-topology", "--node-pattern", "gpu")
    assert (code, out) == (2, "") and err.startswith("node_pattern:")


def test_dashboard_offers_the_hand_off_files_the_plan_can_give(client, user, scenario_4su):
    client.force_login(user)
    html = client.get(reverse("workspace:scenario-detail", args=[scenario_4su.pk])).content.decode()
    for export_format in ("slurm-topology", "slurm-yaml", "ufm-p2p", "netbox"):
        assert f"/api/v1/scenarios/{scenario_4su.pk}/export.{export_format}\"" in html
    assert f"/api/v1/scenarios/{scenario_4su.pk}/export.slurm-block\"" not in html
    ethernet = scenario_create(owner=user, document=ETHERNET_ONLY)
    html = client.get(reverse("workspace:scenario-detail", args=[ethernet.pk])).content.decode()
    assert f"/api/v1/scenarios/{ethernet.pk}/export.netbox\"" in html
    assert f"/api/v1/scenarios/{ethernet.pk}/export.ufm-p2p\"" not in html


def test_the_ufm_workbook_goes_to_a_job_at_a_fifth_of_the_cabling_threshold(user_api, scenario_4su, settings,
                                                                            tmp_path):
    """2,048 cables: the UFM workbook writes a cable five times slower than the cabling plan streams."""
    settings.JOBS_DIR = tmp_path / "jobs"
    settings.HEAVY_EXPORT_CABLES = 2048 * 5 - 1
    assert user_api.get(f"/api/v1/scenarios/{scenario_4su.pk}/export.ufm-p2p").status_code == 202
    assert user_api.get(f"/api/v1/scenarios/{scenario_4su.pk}/export.netbox").status_code == 200
    settings.HEAVY_EXPORT_CABLES = 2048 * 5
    assert user_api.get(f"/api/v1/scenarios/{scenario_4su.pk}/export.ufm-p2p").status_code == 200
