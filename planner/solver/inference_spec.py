"""The `inference:` section: a model (or several, `models:`) served to a load under latency
targets, which sizes the GPUs.

Self-contained (imports only the schema helpers and the catalog's precisions) so that a pool of
`pools:` can carry one too.
"""

import dataclasses
from dataclasses import dataclass
from typing import Literal

from catalog.solver.operating_points import InferencePrecision
from core.solver.schema import spec_field

BenchmarkScenario = Literal["offline", "server", "interactive"]

BYTES_PER_PARAMETER = {"fp16": 2.0, "bf16": 2.0, "fp8": 1.0, "fp4": 0.5}
"""Storage of one weight (or one KV-cache element) at each precision."""

MAX_PARAMETERS_BILLION = 1e6
MAX_TOKENS = 10_000_000
MAX_LOAD = 1e9
MAX_MODELS = 100
UTILISATION_DEFAULT = 0.6
"""Share of the year a serving pool turns out tokens at its sized throughput (diurnal load,
headroom for peaks): an assumption the scenario may change."""
REQUIRED_OF_A_MODEL = ("parameters_billion", "input_tokens", "output_tokens")


@dataclass(frozen=True, kw_only=True)
class InferenceModelSpec:
    """A model served to a load: GPUs from memory (weights and KV cache) and from throughput."""

    name: str = spec_field("", max_length=80, help="The model's name in the plan (each of models: its own).")
    parameters_billion: float | None = spec_field(
        None, unit="billion", minimum=0, exclusive_minimum=True, maximum=MAX_PARAMETERS_BILLION,
        help="Model parameters, all experts of a mixture of experts: they all sit in GPU memory (required).",
    )
    active_parameters_billion: float | None = spec_field(
        None, unit="billion", minimum=0, exclusive_minimum=True, maximum=MAX_PARAMETERS_BILLION,
        help="Parameters each token passes through (mixture of experts); default: all of them.",
    )
    precision: InferencePrecision = spec_field("fp8", help="Precision of the weights: bytes per parameter.")
    kv_cache_precision: InferencePrecision | None = spec_field(
        None, help="Precision of the KV cache; default: that of the weights."
    )
    layers: int | None = spec_field(
        None, minimum=1, maximum=10_000, help="Transformer layers (with kv_heads and head_dim: the KV cache)."
    )
    kv_heads: int | None = spec_field(
        None, minimum=1, maximum=10_000, help="Key-value heads per layer (grouped-query attention: fewer than the query heads)."
    )
    head_dim: int | None = spec_field(None, minimum=1, maximum=100_000, help="Dimension of one attention head.")
    kv_bytes_per_token: float | None = spec_field(
        None, unit="B", minimum=0, exclusive_minimum=True, maximum=1e9,
        help="KV cache of one token, all layers, K and V: instead of layers, kv_heads and head_dim.",
    )
    context_window_tokens: int | None = spec_field(
        None, minimum=1, maximum=MAX_TOKENS,
        help="The model's context window: a model without published points is only estimated from a published "
             "one whose window is within 2x; not checked when left out.",
    )
    input_tokens: int | None = spec_field(
        None, minimum=1, maximum=MAX_TOKENS, help="Context (prompt) tokens of one request (required)."
    )
    output_tokens: int | None = spec_field(
        None, minimum=1, maximum=MAX_TOKENS, help="Tokens generated per request (required).")
    requests_per_s: float | None = spec_field(
        None, unit="1/s", minimum=0, exclusive_minimum=True, maximum=MAX_LOAD,
        help="Requests arriving per second; give either requests_per_s or concurrent_users.",
    )
    concurrent_users: int | None = spec_field(
        None, minimum=1, maximum=MAX_LOAD,
        help="Sequences decoding at once; give either concurrent_users or requests_per_s.",
    )
    tokens_per_s_per_user: float | None = spec_field(
        None, unit="tokens/s", minimum=0, exclusive_minimum=True, maximum=1e6,
        help="Output tokens per second each user sees; or give time_per_output_token_ms.",
    )
    time_per_output_token_ms: float | None = spec_field(
        None, unit="ms", minimum=0, exclusive_minimum=True, maximum=1e6,
        help="Target time between output tokens of one sequence; or give tokens_per_s_per_user.",
    )
    time_to_first_token_ms: float | None = spec_field(
        None, unit="ms", minimum=0, exclusive_minimum=True, maximum=1e7,
        help="Target time to the first token (prefill of the context); not checked when left out.",
    )
    tokens_per_s_per_gpu: float | None = spec_field(
        None, unit="tokens/s", minimum=0, exclusive_minimum=True, maximum=1e9,
        help="Output tokens per second one GPU serves for this model: replaces the catalog figure.",
    )
    benchmark_scenario: BenchmarkScenario | None = spec_field(
        None,
        help="Left out, the latency targets pick the published operating point (server or interactive); offline: "
             "a batch load at the offline point, the targets not served; server or interactive: only that scenario's points.",
    )
    usable_memory_fraction: float = spec_field(
        0.9, minimum=0, exclusive_minimum=True, maximum=1,
        help="Share of GPU memory the serving engine may use; 0.9 is vLLM's gpu_memory_utilization default.",
    )
    memory_overhead_fraction: float = spec_field(
        0.1, minimum=0, maximum=10,
        help="Activations, runtime buffers and fragmentation, as a share of weights plus KV cache (an estimate).",
    )

    def problems(self):
        for name in REQUIRED_OF_A_MODEL:
            if getattr(self, name) is None:
                yield name, "is required"
        if self.parameters_billion is None:
            return
        if self.active_parameters_billion is not None and self.active_parameters_billion > self.parameters_billion:
            yield "active_parameters_billion", "must not exceed parameters_billion"
        shape = {"layers": self.layers, "kv_heads": self.kv_heads, "head_dim": self.head_dim}
        given = [name for name, value in shape.items() if value is not None]
        if self.kv_bytes_per_token is not None and given:
            yield given[0], "leave out when kv_bytes_per_token is given: one of the two sizes the KV cache"
        elif self.kv_bytes_per_token is None and len(given) < len(shape):
            missing = next(name for name in shape if shape[name] is None)
            yield missing, "give layers, kv_heads and head_dim (or kv_bytes_per_token) to size the KV cache"
        if (self.requests_per_s is None) == (self.concurrent_users is None):
            yield "requests_per_s", "give either requests_per_s or concurrent_users (exactly one load)"
        if self.tokens_per_s_per_user is not None and self.time_per_output_token_ms is not None:
            yield "tokens_per_s_per_user", "give either tokens_per_s_per_user or time_per_output_token_ms, not both"
        elif self.tokens_per_s_per_user is None and self.time_per_output_token_ms is None:
            yield "time_per_output_token_ms", (
                "give time_per_output_token_ms or tokens_per_s_per_user: the pace of each sequence "
                "sets the throughput of concurrent users and the sequences in flight of a request rate"
            )

    @property
    def active_billion(self) -> float:
        return self.active_parameters_billion if self.active_parameters_billion is not None else self.parameters_billion

    @property
    def target_time_per_output_token_ms(self) -> float:
        """The pace target: time_per_output_token_ms, or 1,000 / tokens_per_s_per_user."""
        if self.time_per_output_token_ms is not None:
            return self.time_per_output_token_ms
        return 1000.0 / self.tokens_per_s_per_user

    @property
    def pace_field(self) -> str:
        """The field that gave the pace, for errors on its dotted path."""
        return "time_per_output_token_ms" if self.time_per_output_token_ms is not None else "tokens_per_s_per_user"


@dataclass(frozen=True, kw_only=True)
class InferenceSpec(InferenceModelSpec):
    """A pool's inference: one model (the keys above) or several (`models`), and how it is served."""

    models: tuple[InferenceModelSpec, ...] = spec_field(
        (), max_length=MAX_MODELS,
        help="Several models in one pool, each with its own load and targets: GPUs are the sum of each model's "
             "(memory the sum of the replicas, throughput each model's); the model keys then go in each entry.",
    )
    disaggregated: bool = spec_field(
        False,
        help="Prefill on GPUs of its own: prefill GPUs from the input tokens/s over a prefill figure, decode GPUs "
             "from the operating point as without it.",
    )
    prefill_tokens_per_s_per_gpu: float | None = spec_field(
        None, unit="tokens/s", minimum=0, exclusive_minimum=True, maximum=1e9,
        help="Input tokens per second one prefill GPU processes (disaggregated); default: from dense TFLOPS, an estimate.",
    )
    utilisation: float = spec_field(
        UTILISATION_DEFAULT, minimum=0, exclusive_minimum=True, maximum=1,
        help="Share of the time the pool serves at its sized throughput: the tokens the cost per token is spread over.",
    )

    def problems(self):
        if self.prefill_tokens_per_s_per_gpu is not None and not self.disaggregated:
            yield "prefill_tokens_per_s_per_gpu", "give with disaggregated: true (prefill on GPUs of its own)"
        if not self.models:
            yield from super().problems()
            return
        for field in dataclasses.fields(InferenceModelSpec):
            if getattr(self, field.name) != field.default:
                yield field.name, "leave out when models is given: give it in each of models"
        names = set()
        for index, model in enumerate(self.models):
            if not model.name:
                yield f"models[{index}].name", "give each of models a name"
            elif model.name in names:
                yield f"models[{index}].name", f"the model name '{model.name}' is repeated: each of models needs its own"
            names.add(model.name)
