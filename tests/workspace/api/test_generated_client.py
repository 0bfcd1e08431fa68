"""Clients that generate (issue 26.7): openapi-python-client writes a client of the API's schema
that imports, and plans an example through it against the live test server."""

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from django.core.management import call_command
from drf_spectacular.generators import SchemaGenerator

pytest.importorskip("openapi_python_client")

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
PACKAGE = "planner_client"
GENERATE_S = 240


@pytest.fixture(scope="module")
def client_package(tmp_path_factory):
    folder = tmp_path_factory.mktemp("generated")
    schema = folder / "openapi.yaml"
    schema.write_text(yaml.safe_dump(SchemaGenerator().get_schema(request=None, public=True)))
    output = folder / PACKAGE
    generated = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(schema),
         "--output-path", str(output), "--meta", "none"],
        capture_output=True, text=True, timeout=GENERATE_S,
    )
    assert output.is_dir(), generated.stdout[-3000:] + generated.stderr[-3000:]
    assert "Failed to parse" not in generated.stdout + generated.stderr
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [name for name in sys.modules if name == PACKAGE or name.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def test_every_module_of_the_generated_client_imports(client_package):
    operations = importlib.import_module(f"{PACKAGE}.api.v1")
    names = [module.name for module in pkgutil.iter_modules(operations.__path__)]
    assert "v1_plan_create" in names and "v1_token_create" in names
    for name in names:
        importlib.import_module(f"{PACKAGE}.api.v1.{name}")
    models = importlib.import_module(f"{PACKAGE}.models")
    # One pool or several: a type each; the fabric's tiers, "auto" or 2 or 3, kept.
    assert hasattr(models, "ScenarioDocumentWithCompute") and hasattr(models, "ScenarioDocumentWithPools")
    assert hasattr(models, "FabricSpec")


@pytest.fixture
def catalog_in_live_database(transactional_db):
    call_command("loadcatalog", verbosity=0)


def test_an_example_is_planned_through_the_generated_client(client_package, live_server, catalog_in_live_database):
    models = importlib.import_module(f"{PACKAGE}.models")
    plan_create = importlib.import_module(f"{PACKAGE}.api.v1.v1_plan_create")
    document = yaml.safe_load((EXAMPLES / "dgx-h100-4su.yaml").read_text())
    body = models.ScenarioDocumentWithCompute.from_dict(document)
    with client_package.Client(base_url=live_server.url, timeout=60) as client:
        response = plan_create.sync_detailed(client=client, body=body)
    assert response.status_code == 200, response.content[:500]
    plan = response.parsed
    assert isinstance(plan, models.Plan)
    assert plan.to_dict()["compute"]["nodes"] == document["compute"]["nodes"]
    assert plan.to_dict()["name"] == document["name"]
