"""Tighter latency never needs fewer GPUs: an inference pool's GPUs against its TTFT and TPOT
targets, on the published operating points of the catalog.

The load is concurrent users: a request rate holds fewer sequences in flight at a faster pace
(Little's law), so its memory, and with it its GPUs, may fall as the pace tightens; that is the
load getting lighter, not latency getting cheaper. The tokens/s per GPU read off a curve of
published points never grows as a target tightens either."""

import functools

from hypothesis import assume, given
from hypothesis import strategies as st

from catalog.solver.operating_points import curve_figure
from core.solver.errors import InfeasibleError
from core.solver.schema import read_spec
from planner.solver.inference import size_inference
from planner.solver.inference_spec import InferenceSpec
from tests.properties.strategies import seed_catalog

SYSTEMS = ["hgx-h100", "hgx-h200", "hgx-b200", "gb200-nvl72", "mi300x-8", "mi325x-8", "hgx-a100"]
MODELS = [
    # Published shapes (Llama 2 70B, Llama 3.1 405B, Mixtral 8x7B, DeepSeek-R1's 671B / 37B) and
    # two that are not (scaled from the nearest of their class)
    {"parameters_billion": 70, "layers": 80, "kv_heads": 8, "head_dim": 128},
    {"parameters_billion": 405, "layers": 126, "kv_heads": 8, "head_dim": 128},
    {"parameters_billion": 46.7, "active_parameters_billion": 12.9, "layers": 32, "kv_heads": 8, "head_dim": 128},
    {"parameters_billion": 671, "active_parameters_billion": 37, "kv_bytes_per_token": 70_000},
    {"parameters_billion": 30, "layers": 48, "kv_heads": 8, "head_dim": 128},
    {"parameters_billion": 100, "active_parameters_billion": 20, "layers": 40, "kv_heads": 8, "head_dim": 128},
]


@functools.cache
def points():
    return tuple(seed_catalog().inference_operating_points.values())


@st.composite
def loads(draw):
    """A pool's load and targets, and the same with each target tightened (or kept)."""
    document = {
        **draw(st.sampled_from(MODELS)),
        "precision": draw(st.sampled_from(["fp8", "fp4", "bf16"])),
        "concurrent_users": draw(st.integers(1, 5_000)),
        "input_tokens": draw(st.integers(1, 8_000)),
        "output_tokens": draw(st.integers(1, 4_000)),
        "time_per_output_token_ms": draw(st.floats(5, 500)),
        "disaggregated": draw(st.booleans()),
    }
    if draw(st.booleans()):
        document["time_to_first_token_ms"] = draw(st.floats(50, 20_000))
    tighter = dict(document)
    tighter["time_per_output_token_ms"] *= draw(st.floats(0.1, 1))
    if "time_to_first_token_ms" in document:
        tighter["time_to_first_token_ms"] *= draw(st.floats(0.1, 1))
    elif draw(st.booleans()):
        tighter["time_to_first_token_ms"] = draw(st.floats(50, 20_000))
    return draw(st.sampled_from(SYSTEMS)), document, tighter


def gpus(system: str, document: dict) -> int | None:
    """The pool's GPUs, or None when no design meets the targets."""
    spec = read_spec(InferenceSpec, document, "inference")
    try:
        return size_inference(spec, seed_catalog().systems[system], points()).gpus_needed
    except InfeasibleError:
        return None


@given(loads())
def test_tighter_latency_never_needs_fewer_gpus(load):
    system, looser, tighter = load
    looser_gpus = gpus(system, looser)
    assume(looser_gpus is not None)
    tighter_gpus = gpus(system, tighter)
    # A tighter target no design meets needs more GPUs than any design has.
    assert tighter_gpus is None or tighter_gpus >= looser_gpus


@st.composite
def curves(draw):
    """The latency-bound points of one GPU and model, and two targets, the second no looser."""
    bound = [point for point in points() if point.scenario != "offline"]
    chosen = draw(st.sampled_from(bound))
    curve = [point for point in bound if (point.gpu_model, point.model) == (chosen.gpu_model, chosen.model)]
    tpot = draw(st.floats(1, 1_000))
    ttft = draw(st.none() | st.floats(10, 20_000))
    tighter_ttft = draw(st.none()) if ttft is None and draw(st.booleans()) else (
        (ttft if ttft is not None else draw(st.floats(10, 20_000))) * draw(st.floats(0.01, 1)))
    return curve, (tpot, ttft), (tpot * draw(st.floats(0.01, 1)), tighter_ttft)


@given(curves())
def test_the_tokens_per_gpu_of_a_curve_never_grow_as_a_target_tightens(case):
    curve, looser, tighter = case

    def roofline(tpot_ms):
        return 1000 * tpot_ms / (tpot_ms + 20)

    for bound in (None, roofline):
        looser_figure = curve_figure(curve, *looser, bound).tokens_per_s_per_gpu
        tighter_figure = curve_figure(curve, *tighter, bound).tokens_per_s_per_gpu
        assert tighter_figure <= looser_figure * (1 + 1e-12)
