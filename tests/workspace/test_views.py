import pytest

pytestmark = pytest.mark.django_db


def test_home_lists_the_catalog_systems_and_links_the_api(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "NVIDIA DGX H100" in html and "gb200-nvl72" in html
    assert 'href="/api/docs/"' in html


def test_admin_edits_the_catalog(admin_client):
    assert admin_client.get("/admin/fabric/switch/").status_code == 200
    assert admin_client.get("/admin/planner/system/").status_code == 200
