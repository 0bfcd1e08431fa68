"""The table of published inference results (planner/catalog/inference_throughput.yaml)."""

import pytest


def test_every_result_names_a_gpu_of_the_catalog_and_its_mlperf_source(catalog):
    gpu_models = {system.gpu_model for system in catalog.systems.values()}
    assert catalog.inference_throughput
    for row in catalog.inference_throughput.values():
        assert row.gpu_model in gpu_models, row.id
        assert row.source_url.startswith("https://github.com/mlcommons/inference_results_v"), row.id
        assert f"/{row.scenario.capitalize()}/" in row.source_url, row.id
        assert row.mlperf_round in row.source_url and row.division == "closed", row.id


@pytest.mark.parametrize(
    ("row_id", "system_tokens_per_s", "gpus"),
    [
        # "Tokens per second" / "Completed tokens per second" of each mlperf_log_summary.txt
        ("h100-llama2-70b-offline-v4.1", 24_524.9, 8),
        ("h200-llama2-70b-server-v4.1", 29_228.22, 8),
        ("mi300x-llama2-70b-offline-v4.1", 23_514.8, 8),
        ("gb200-llama3.1-405b-offline-v5.0", 13_886.4, 72),
    ],
)
def test_tokens_per_gpu_are_the_system_figure_over_its_gpus(catalog, row_id, system_tokens_per_s, gpus):
    row = catalog.inference_throughput[row_id]
    assert row.tokens_per_s_per_gpu == pytest.approx(system_tokens_per_s / gpus)
