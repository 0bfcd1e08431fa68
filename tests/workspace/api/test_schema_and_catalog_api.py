import pytest

pytestmark = pytest.mark.django_db


def test_openapi_schema_describes_the_whole_api(api):
    response = api.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in ["/api/v1/plan/", "/api/v1/scenarios/", "/api/v1/scenarios/{id}/",
                 "/api/v1/scenarios/{id}/plan/", "/api/v1/scenarios/{id}/revisions/",
                 "/api/v1/catalog/systems/", "/api/v1/catalog/switches/{slug}/"]:
        assert path in paths


def test_api_docs_page_is_served_without_internet(api):
    response = api.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html and "https://cdn" not in html


@pytest.mark.parametrize(
    ("kind", "slug", "field", "value"),
    [
        ("systems", "dgx-h100", "power_kw", 10.2),
        ("switches", "qm9700", "ports", 64),
        ("transceivers", "osfp-800g-2xsr4", "ports", 2),
        ("cables", "cat6a-rj45", "media", "twisted_pair"),
        ("rack-types", "rack-42u-600", "usable_u", 42),
        ("pdus", "pdu-415v-60a-3ph", "current_a", 60),
        ("cooling-types", "air", "liquid_fraction", 0),
        ("storage-systems", None, None, None),
        ("servers", "ufm-enterprise-appliance", "rack_units", 1),
    ],
)
def test_catalog_is_readable_by_slug(api, kind, slug, field, value):
    listing = api.get(f"/api/v1/catalog/{kind}/").json()
    assert listing and all(item["source_url"] for item in listing)
    if slug:
        part = api.get(f"/api/v1/catalog/{kind}/{slug}/").json()
        assert part[field] == value and part["confidence"] in ("datasheet", "analysis", "estimate")


def test_catalog_is_read_only_in_the_api(user_api):
    assert user_api.delete("/api/v1/catalog/systems/dgx-h100/").status_code == 405
    assert user_api.post("/api/v1/catalog/systems/", {}, format="json").status_code == 405


def test_unknown_catalog_slug_is_404(api):
    response = api.get("/api/v1/catalog/systems/dgx-h999/")
    assert response.status_code == 404
    assert response.json() == {"errors": {"detail": ["No System matches the given query."]}}
