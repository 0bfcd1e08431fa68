import csv
import io
import json

import pytest
from openpyxl import load_workbook

pytestmark = pytest.mark.django_db

DOCUMENT = {"name": "B200 pod", "compute": {"system": "dgx-b200", "nodes": 32}, "racks": {"power_budget_kw": 60}}


@pytest.mark.parametrize(("export_format", "content_type"), [
    ("json", "application/json"), ("csv", "text/csv; charset=utf-8"),
    ("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
])
def test_saved_scenario_exports(user_api, export_format, content_type):
    scenario_id = user_api.post("/api/v1/scenarios/", {"document": DOCUMENT}, format="json").json()["id"]
    response = user_api.get(f"/api/v1/scenarios/{scenario_id}/export.{export_format}")
    assert response.status_code == 200
    assert response["Content-Type"] == content_type
    assert response["Content-Disposition"].startswith('attachment; filename="b200-pod.')
    if export_format == "json":
        assert json.loads(response.content)["compute"]["gpus"] == 256
    elif export_format == "csv":
        assert next(csv.DictReader(io.StringIO(response.content.decode())))["quantity"] == "32"
    else:
        assert "BOM" in load_workbook(io.BytesIO(response.content)).sheetnames


def test_posted_document_exports(api):
    response = api.post("/api/v1/plan/export.csv", DOCUMENT, format="json")
    assert response.status_code == 200
    assert response.content.decode().splitlines()[0].startswith("category,sku,description,length_m,quantity")


def test_unknown_format_is_400_naming_format(user_api):
    response = user_api.post("/api/v1/plan/export.pdf", DOCUMENT, format="json")
    assert response.status_code == 400
    assert response.json() == {"errors": {"format": [
        "must be one of: json, csv, xlsx, cabling, cabling-parquet, slurm-topology, slurm-block, slurm-yaml, ufm-p2p, netbox"]}}


CABLED = {**DOCUMENT, "fabrics": {"compute": {"switch": "qm9700"}, "oob": {"switch": "sn2201", "spine_switch": "sn5600"}}}


def test_cabling_plan_is_streamed_for_a_saved_scenario(user_api):
    from django.http import StreamingHttpResponse

    scenario_id = user_api.post("/api/v1/scenarios/", {"document": CABLED}, format="json").json()["id"]
    response = user_api.get(f"/api/v1/scenarios/{scenario_id}/export.cabling")
    assert response.status_code == 200
    assert isinstance(response, StreamingHttpResponse)
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="b200-pod.cabling.csv"'
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    plan = user_api.get(f"/api/v1/scenarios/{scenario_id}/plan/").json()
    links = [link for fabric in plan["fabrics"].values() for link in fabric["links"]]
    assert len(rows) == sum(link["count"] for link in links)
    assert rows[0]["from_device"] == "r001-node-01"


def test_cabling_plan_of_a_posted_document(api):
    response = api.post("/api/v1/plan/export.cabling", CABLED, format="json")
    assert response.status_code == 200 and response.streaming
    first = next(iter(response.streaming_content)).decode()
    assert first.startswith("link,from_rack,from_u,from_device,from_port,to_rack")


def test_bad_document_in_an_export_is_400(api):
    response = api.post("/api/v1/plan/export.json", {"name": "x"}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == {"compute": ["is required"]}


def test_another_users_export_is_404(user_api, django_user_model):
    from rest_framework.test import APIClient

    scenario_id = user_api.post("/api/v1/scenarios/", {"document": DOCUMENT}, format="json").json()["id"]
    other = APIClient()
    other.force_authenticate(django_user_model.objects.create_user("mallory", password="x" * 12))
    assert other.get(f"/api/v1/scenarios/{scenario_id}/export.xlsx").status_code == 404
