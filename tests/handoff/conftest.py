from pathlib import Path

import pytest
import yaml

from planner.solver.pipeline import plan_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example_document(name: str) -> dict:
    return yaml.safe_load((EXAMPLES / name).read_text())


def superpod_plan(catalog, name: str, nodes: int = 16):
    """The 4-SU example cut to `nodes` systems (16: one scalable unit; 128: the whole example),
    under `name`."""
    document = example_document("dgx-h100-4su.yaml")
    document["name"] = name
    document["compute"]["nodes"] = nodes
    return plan_scenario(document, catalog)


def inference_plan(catalog, name: str):
    """A different plan for a second push into one instance: HGX H100 inference servers, a
    device type of their own beside the head node's and the PDU's, which the first plan has too.
    (A multi-rack CloudMatrix plan, with virtual chassis and split lanes, takes the live tools too
    long for the suite: 262 devices, 1,629 cables; tests/handoff/solver/test_netbox_objects.py
    checks its objects.)"""
    return plan_scenario({**example_document("llama-70b-inference.yaml"), "name": name}, catalog)


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
