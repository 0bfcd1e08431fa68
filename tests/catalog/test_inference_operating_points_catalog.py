"""The table of published inference operating points (planner/catalog/inference_operating_points.yaml)."""

import re

import pytest

ROUND_COPIES = {
    "v4.1": "https://github.com/mlcommons/inference_results_v4.1/",
    "v5.0": "https://github.com/ntuhpc/mlperf_inference_results_v5.0/",
    "v5.1": "https://github.com/ykamiset/inference_results_v5.1/",
}


def test_every_point_names_a_gpu_of_the_catalog_and_the_result_file_it_was_read_from(catalog):
    gpu_models = {system.gpu_model for system in catalog.systems.values()}
    assert len(catalog.inference_operating_points) >= 25
    for point in catalog.inference_operating_points.values():
        assert point.gpu_model in gpu_models, point.id
        assert point.source_url.startswith(ROUND_COPIES[point.mlperf_round]), point.id
        assert point.source_url.endswith("/performance/run_1/mlperf_log_summary.txt"), point.id
        assert f"/{point.benchmark}/" in point.source_url and point.division == "closed", point.id
        # The system's accelerator count is in its name: "...x8_TRT", "...x72_TRT"
        system = point.source_url.split("/results/")[1].split("/")[0]
        assert re.search(rf"x{point.gpus}(_|$)", system) or system.startswith(f"{point.gpus}x"), point.id


def test_a_latency_bound_point_keeps_the_limits_of_its_scenario(catalog):
    for point in catalog.inference_operating_points.values():
        folder = point.source_url.split(f"/{point.benchmark}/")[1].split("/")[0]
        if point.scenario == "offline":
            assert folder == "Offline" and point.time_per_output_token_limit_ms is None, point.id
        else:
            assert folder in ("Server", "Interactive"), point.id
            assert point.time_to_first_token_limit_ms > point.time_per_output_token_limit_ms > 0, point.id
    # An interactive point is the tighter one: TPOT 40 ms (Llama 2 70B), 80 ms (Llama 3.1 405B)
    interactive = {p.time_per_output_token_limit_ms for p in catalog.inference_operating_points.values()
                   if p.scenario == "interactive"}
    assert interactive == {40, 80}


def test_a_model_has_one_shape_in_every_row(catalog):
    shapes = {}
    for point in catalog.inference_operating_points.values():
        shape = (point.model_class, point.model_parameters_billion, point.model_active_parameters_billion,
                 point.model_context_tokens)
        assert shapes.setdefault(point.model, shape) == shape, point.id
    assert shapes["mixtral-8x7b"] == ("moe", 46.7, 12.9, 32_768)
    assert shapes["deepseek-r1"] == ("moe", 671, 37, 131_072)


@pytest.mark.parametrize(
    ("point_id", "system_tokens_per_s", "gpus", "ttft_ms", "tpot_ms"),
    [
        # "Tokens per second" / "Completed tokens per second" and "ttft_latency (ns)" / "tpot_latency
        # (ns)" of each mlperf_log_summary.txt
        ("h100-llama2-70b-server-v4.1", 21_605.79, 8, 2_000, 200),
        ("h200-llama2-70b-interactive-v5.0", 19_424.25, 8, 450, 40),
        ("b200-llama3.1-405b-server-v5.0", 845.82, 8, 6_000, 175),
        ("gb200-llama3.1-405b-interactive-v5.1", 9_921.02, 72, 4_500, 80),
        ("gb200-deepseek-r1-server-v5.1", 167_578.06, 72, 2_000, 80),
        ("mi325x-llama2-70b-server-v5.0", 30_724.51, 8, 2_000, 200),
        ("gb200-llama2-70b-interactive-v5.1", 29_745.55, 4, 450, 40),
    ],
)
def test_tokens_per_gpu_are_the_system_figure_over_its_gpus(catalog, point_id, system_tokens_per_s, gpus, ttft_ms, tpot_ms):
    point = catalog.inference_operating_points[point_id]
    assert point.tokens_per_s_per_gpu == pytest.approx(system_tokens_per_s / gpus)
    assert (point.time_to_first_token_limit_ms, point.time_per_output_token_limit_ms) == (ttft_ms, tpot_ms)
