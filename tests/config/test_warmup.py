"""A server worker warms up as it boots (config/warmup.py), and boots cold rather than not at all
when the database or the catalog cannot serve the warm-up."""

import subprocess
import sys
from pathlib import Path

import pytest
from django.db import OperationalError

from config import warmup
from core.solver.errors import ScenarioError


def test_the_warm_up_plans_and_exports_a_small_cluster(monkeypatch, catalog):
    exported = []
    monkeypatch.setattr(warmup, "catalog_snapshot", lambda: catalog)
    monkeypatch.setattr(warmup, "plan_export_of", lambda plan, export_format, **kwargs: exported.append(
        (plan.compute.gpus, export_format)))
    warmup.warm_up()
    assert exported == [(64, "xlsx")]


@pytest.mark.parametrize("error", [OperationalError("no such table: catalog_system"),
                                   ScenarioError.at("compute.system", "unknown system 'dgx-b300'")])
def test_a_worker_boots_cold_when_the_warm_up_cannot_plan(monkeypatch, caplog, error):
    def fails():
        raise error

    monkeypatch.setattr(warmup, "catalog_snapshot", fails)
    warmup.warm_up()
    assert "the worker boots without its warm-up" in caplog.text


def test_a_worker_leaves_what_it_loaded_out_of_full_collections():
    """config.wsgi, as gunicorn's worker imports it, freezes what it loaded (gc.freeze): tens of
    thousands of objects that a full collection no longer walks."""
    root = Path(__file__).resolve().parents[2]
    booted = subprocess.run([sys.executable, "-c", "import gc, config.wsgi; print(gc.get_freeze_count())"],
                            cwd=root, capture_output=True, text=True, timeout=300, check=True)
    assert int(booted.stdout.split()[-1]) > 10_000
