from pathlib import Path

import pytest
import yaml

from planner.solver.pipeline import plan_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example_document(name: str) -> dict:
    return yaml.safe_load((EXAMPLES / name).read_text())


@pytest.fixture(scope="session")
def plan_4su(catalog):
    """The 4-SU DGX H100 SuperPOD (RA-11333-001): 128 systems, rail-optimized 2-tier NDR."""
    return plan_scenario(example_document("dgx-h100-4su.yaml"), catalog)


@pytest.fixture(scope="session")
def plan_nvl72(catalog):
    """16 GB200 NVL72 racks (NVLink domains of 18 compute trays) with an InfiniBand compute fabric."""
    document = example_document("gb200-nvl72-liquid-facility.yaml")
    document["fabrics"] = {"compute": {"switch": "qm9700", "topology": "fat_tree",
                                       "leaf_placement": "rail_optimized", "tiers": 2}}
    return plan_scenario(document, catalog)
